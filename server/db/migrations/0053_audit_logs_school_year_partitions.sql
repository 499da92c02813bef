-- custom: the operation log partitioned by school year (docs/decisions/064-partitions-by-school-year.md). drizzle cannot
-- declare a partitioned table, so this file rebuilds audit_logs after the generated migration: same columns, one
-- partition per school year on "at" (1 August in China to the next 1 August, the product's school year), made ahead by
-- server/db/school-year-partitions.ts, plus a DEFAULT partition for anything outside them. A partitioned table's keys
-- must hold the partition key: the primary key becomes (id, at) (ids are random UUIDs), and "one place per chain",
-- formerly a unique index, is kept by the trigger audit_logs_one_place. Existing rows are copied once.
--
-- The partition of one school year of any table partitioned this way: <table>_sy<start year>, e.g. audit_logs_sy2026
-- for 2026-2027. Created once (safe to call concurrently under the caller's advisory lock); NULL when rows of that
-- year already sit in the DEFAULT partition (the partition could not be attached over them; they stay there).
CREATE FUNCTION tiyu_school_year_partition(parent text, start_year int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	name text := parent || '_sy' || start_year;
	lo timestamptz := make_timestamptz(start_year, 8, 1, 0, 0, 0, 'Asia/Shanghai');
	hi timestamptz := make_timestamptz(start_year + 1, 8, 1, 0, 0, 0, 'Asia/Shanghai');
	crowded boolean;
BEGIN
	IF to_regclass(name) IS NOT NULL THEN
		RETURN name;
	END IF;
	EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE at >= %L AND at < %L)', parent || '_default', lo, hi) INTO crowded;
	IF crowded THEN
		RETURN NULL;
	END IF;
	EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, parent, lo, hi);
	IF parent = 'audit_logs' THEN
		-- A TRUNCATE of one partition does not fire the parent's statement trigger.
		EXECUTE format('CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_no_truncate()', name);
	END IF;
	RETURN name;
END $$;
--> statement-breakpoint
ALTER TABLE "audit_logs" RENAME TO "audit_logs_unpartitioned";
--> statement-breakpoint
CREATE TABLE "audit_logs" (LIKE "audit_logs_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE TABLE "audit_logs_default" PARTITION OF "audit_logs" DEFAULT;
--> statement-breakpoint
CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON audit_logs_default FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_no_truncate();
--> statement-breakpoint
-- Every school year with rows, the current one and the next.
SELECT tiyu_school_year_partition('audit_logs', y)
  FROM generate_series(
    least(
      (SELECT min(extract(year from (at at time zone 'Asia/Shanghai') - interval '7 months'))::int FROM audit_logs_unpartitioned),
      extract(year from (now() at time zone 'Asia/Shanghai') - interval '7 months')::int),
    extract(year from (now() at time zone 'Asia/Shanghai') - interval '7 months')::int + 1) AS y;
--> statement-breakpoint
INSERT INTO "audit_logs" SELECT * FROM "audit_logs_unpartitioned";
--> statement-breakpoint
DROP TABLE "audit_logs_unpartitioned";
--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_id_at_pk" PRIMARY KEY ("id", "at");
--> statement-breakpoint
CREATE INDEX "audit_logs_org_at_idx" ON "audit_logs" USING btree ("org_id", "at");
--> statement-breakpoint
CREATE INDEX "audit_logs_entity_idx" ON "audit_logs" USING btree ("entity", "entity_id");
--> statement-breakpoint
CREATE INDEX "audit_logs_chain_seq_idx" ON "audit_logs" USING btree (coalesce("org_id", '00000000-0000-0000-0000-000000000000'::uuid), "seq") WHERE "seq" is not null;
--> statement-breakpoint
CREATE INDEX "audit_logs_unsealed_idx" ON "audit_logs" USING btree ("at", "id") WHERE "seq" is null;
--> statement-breakpoint
-- The guards of migration audit_log_guard, on the new table (row triggers reach every partition).
CREATE TRIGGER audit_logs_guard BEFORE UPDATE OR DELETE ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_guard();
--> statement-breakpoint
CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON audit_logs FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_no_truncate();
--> statement-breakpoint
-- One place per chain (was the unique index audit_logs_chain_seq_uq): a row given a place another row of its chain
-- holds, in any partition, is refused. Only the sealer gives places, under its advisory lock, so checks never race.
CREATE FUNCTION audit_logs_one_place() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM audit_logs
	            WHERE coalesce(org_id, '00000000-0000-0000-0000-000000000000'::uuid) = coalesce(NEW.org_id, '00000000-0000-0000-0000-000000000000'::uuid)
	              AND seq = NEW.seq AND id <> NEW.id) THEN
		RAISE EXCEPTION 'operation log place % is already taken in its chain', NEW.seq USING ERRCODE = 'unique_violation';
	END IF;
	RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_logs_one_place BEFORE INSERT OR UPDATE OF seq ON audit_logs FOR EACH ROW WHEN (NEW.seq IS NOT NULL) EXECUTE FUNCTION audit_logs_one_place();
--> statement-breakpoint
-- The change feed (migration 0037_changes_by_org) on partitioned tables: the parent notifies by organisation like a
-- plain table (its statement triggers with transition tables see the rows of every partition); partitions get no
-- trigger of their own (the product writes through the parent).
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
