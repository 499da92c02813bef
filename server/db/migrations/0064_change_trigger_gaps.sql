-- Every start gives the tables that lack it their change-feed trigger (server/db/client.ts, migrateDb). Almost always
-- none does: the start first asks this set-wise view in one plain SQL query and calls tiyu_ensure_change_triggers()
-- only when it answers a row, so a usual start neither walks the tables one by one nor loads PL/pgSQL, which costs a
-- cold PGlite ≈ 0.1–0.2 s of CPU (docs/decisions/065-built-server.md). The tables and the triggers each needs are
-- those of migrations 0035, 0037 and 0063 (docs/decisions/027-read-cache-and-change-feed.md): a table with an
-- organisation (`org_id uuid`) needs the per-row-set triggers (`tiyu_changed_ins` and its siblings), any other table the
-- statement trigger `tiyu_changed`; partitions are covered by their partitioned table; the access log gets none.
CREATE OR REPLACE FUNCTION tiyu_change_trigger_gaps() RETURNS TABLE (table_name name, by_org boolean) LANGUAGE sql STABLE AS $$
  select c.relname, o.by_org
  from pg_class c
  cross join lateral (
    select exists (
      select 1 from pg_attribute a
      where a.attrelid = c.oid and a.attname = 'org_id' and a.atttypid = 'uuid'::regtype and not a.attisdropped) as by_org
  ) o
  where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
    and c.relname <> all (array['access_logs'])
    and not exists (
      select 1 from pg_trigger g
      where g.tgrelid = c.oid and g.tgname = case when o.by_org then 'tiyu_changed_ins' else 'tiyu_changed' end)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tiyu_ensure_change_triggers() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  t record;
  n integer := 0;
BEGIN
  FOR t IN select g.table_name, g.by_org from tiyu_change_trigger_gaps() g order by g.table_name
  LOOP
    IF t.by_org THEN
      EXECUTE format('DROP TRIGGER IF EXISTS tiyu_changed ON %I', t.table_name);
      EXECUTE format('DROP TRIGGER IF EXISTS tiyu_changed_upd ON %I', t.table_name);
      EXECUTE format('DROP TRIGGER IF EXISTS tiyu_changed_del ON %I', t.table_name);
      EXECUTE format('CREATE TRIGGER tiyu_changed AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed()', t.table_name);
      EXECUTE format('CREATE TRIGGER tiyu_changed_ins AFTER INSERT ON %I REFERENCING NEW TABLE AS tiyu_new FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed_rows()', t.table_name);
      EXECUTE format('CREATE TRIGGER tiyu_changed_upd AFTER UPDATE ON %I REFERENCING OLD TABLE AS tiyu_old NEW TABLE AS tiyu_new FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed_rows()', t.table_name);
      EXECUTE format('CREATE TRIGGER tiyu_changed_del AFTER DELETE ON %I REFERENCING OLD TABLE AS tiyu_old FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed_rows()', t.table_name);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed', t.table_name);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed_ins', t.table_name);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed_upd', t.table_name);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed_del', t.table_name);
    ELSE
      EXECUTE format('CREATE TRIGGER tiyu_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION tiyu_changed()', t.table_name);
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER tiyu_changed', t.table_name);
    END IF;
    n := n + 1;
  END LOOP;
  RETURN n;
END
$$;
