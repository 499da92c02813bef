-- The access log is written by every signed-in request, in one INSERT a second (docs/decisions/062-access-log.md), and
-- no kept answer reads it (server/plugins/read-cache.ts refuses a route declaring a table without the feed's trigger):
-- its change-feed trigger walked the organisation tree and notified every instance once a second for nothing, in the
-- requests' own thread on PGlite. Tables listed here get no trigger (docs/decisions/027-read-cache-and-change-feed.md).
CREATE OR REPLACE FUNCTION tiyu_ensure_change_triggers() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  t record;
  n integer := 0;
BEGIN
  FOR t IN
    select c.oid, c.relname,
      exists (
        select 1 from pg_attribute a
        where a.attrelid = c.oid and a.attname = 'org_id' and a.atttypid = 'uuid'::regtype and not a.attisdropped) as by_org
    from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      and c.relname <> all (array['access_logs'])
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
DROP TRIGGER IF EXISTS tiyu_changed ON access_logs;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tiyu_changed_ins ON access_logs;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tiyu_changed_upd ON access_logs;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tiyu_changed_del ON access_logs;
