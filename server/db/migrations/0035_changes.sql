-- custom: change feed (server/lib/change-feed.ts; docs/architecture.md, "Read cache"). Every statement that writes a
-- table notifies channel tiyu_changes with the table's name; PostgreSQL delivers it to the listening server instances
-- when, and only if, the transaction commits, and folds repeats within a transaction into one. Statement-level, so a
-- COPY or an INSERT … SELECT of 50,000 rows notifies once. ENABLE ALWAYS: the score import and the ingest write in
-- replica mode. tiyu_ensure_change_triggers() gives every table of the schema the trigger it lacks; migrateDb calls it
-- after every migration run, so a table added later is covered without its migration having to remember.
CREATE FUNCTION tiyu_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tiyu_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION tiyu_ensure_change_triggers() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  t record;
  n integer := 0;
BEGIN
  FOR t IN
    select c.oid, c.relname from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
      and not exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'tiyu_changed')
    order by c.relname
  LOOP
    EXECUTE format('CREATE TRIGGER tiyu_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed()', t.relname);
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed', t.relname);
    n := n + 1;
  END LOOP;
  RETURN n;
END
$$;
--> statement-breakpoint
SELECT tiyu_ensure_change_triggers();
