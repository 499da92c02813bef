-- custom: the change feed by organisation (server/lib/change-feed.ts; docs/architecture.md, "Read cache"). A table
-- with an `org_id` column notifies `<table>:<org ids>`: the organisations of the rows the statement wrote (before and
-- after an update), with their ancestors and descendants, so a write in one school retires the cached answers of that
-- school, the bureaus above it and anything below it, and keeps every other school's. Statement-level triggers with
-- transition tables (one per event: a trigger with transition tables may not fire on several), so a COPY of 50,000
-- rows still notifies once, after one pass over its rows; a statement that wrote no row notifies nothing. A row
-- without an organisation, or more than 200 organisations (a notification holds at most 8,000 bytes), notify the
-- table alone, as a TRUNCATE does. Tables without `org_id` keep the plain trigger of 0035_changes.
CREATE FUNCTION tiyu_changed_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  wide boolean;
  payload text;
  n integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT r.org_id), bool_or(r.org_id IS NULL) INTO ids, wide FROM tiyu_new r;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT r.org_id), bool_or(r.org_id IS NULL) INTO ids, wide FROM tiyu_old r;
  ELSE
    SELECT array_agg(DISTINCT r.org_id), bool_or(r.org_id IS NULL) INTO ids, wide
    FROM (SELECT o.org_id FROM tiyu_old o UNION ALL SELECT w.org_id FROM tiyu_new w) r;
  END IF;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  IF NOT wide AND cardinality(ids) <= 200 THEN
    WITH RECURSIVE
      up(id) AS (
        SELECT unnest(ids)
        UNION SELECT o.parent_id FROM orgs o JOIN up ON o.id = up.id WHERE o.parent_id IS NOT NULL),
      down(id) AS (
        SELECT unnest(ids)
        UNION SELECT o.id FROM orgs o JOIN down ON o.parent_id = down.id)
    SELECT string_agg(t.id::text, ','), count(*) INTO payload, n FROM (SELECT id FROM up UNION SELECT id FROM down) t;
    IF n <= 200 THEN
      PERFORM pg_notify('tiyu_changes', TG_TABLE_NAME || ':' || payload);
      RETURN NULL;
    END IF;
  END IF;
  PERFORM pg_notify('tiyu_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tiyu_ensure_change_triggers() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  t record;
  n integer := 0;
BEGIN
  FOR t IN
    select c.oid, c.relname,
      c.relkind = 'r' and not c.relispartition and exists (
        select 1 from pg_attribute a
        where a.attrelid = c.oid and a.attname = 'org_id' and a.atttypid = 'uuid'::regtype and not a.attisdropped) as by_org
    from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
    order by c.relname
  LOOP
    IF t.by_org THEN
      CONTINUE WHEN exists (select 1 from pg_trigger g where g.tgrelid = t.oid and g.tgname = 'tiyu_changed_ins');
      EXECUTE format('DROP TRIGGER IF EXISTS tiyu_changed ON %I', t.relname);
      EXECUTE format('DROP TRIGGER IF EXISTS tiyu_changed_upd ON %I', t.relname);
      EXECUTE format('DROP TRIGGER IF EXISTS tiyu_changed_del ON %I', t.relname);
      EXECUTE format('CREATE TRIGGER tiyu_changed AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed()', t.relname);
      EXECUTE format('CREATE TRIGGER tiyu_changed_ins AFTER INSERT ON %I REFERENCING NEW TABLE AS tiyu_new FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed_rows()', t.relname);
      EXECUTE format('CREATE TRIGGER tiyu_changed_upd AFTER UPDATE ON %I REFERENCING OLD TABLE AS tiyu_old NEW TABLE AS tiyu_new FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed_rows()', t.relname);
      EXECUTE format('CREATE TRIGGER tiyu_changed_del AFTER DELETE ON %I REFERENCING OLD TABLE AS tiyu_old FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed_rows()', t.relname);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed', t.relname);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed_ins', t.relname);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed_upd', t.relname);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed_del', t.relname);
      n := n + 1;
    ELSE
      CONTINUE WHEN exists (select 1 from pg_trigger g where g.tgrelid = t.oid and g.tgname = 'tiyu_changed');
      EXECUTE format('CREATE TRIGGER tiyu_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed()', t.relname);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed', t.relname);
      n := n + 1;
    END IF;
  END LOOP;
  RETURN n;
END
$$;
--> statement-breakpoint
SELECT tiyu_ensure_change_triggers();
