-- custom: the access log partitioned by day (docs/decisions/062-access-log.md), so retention archives a whole day and
-- drops its partition instead of deleting rows. drizzle cannot declare a partitioned table, so this file rebuilds
-- access_logs after the generated migration: same columns, one partition per China day on "at" (access_logs_YYYYMMDD),
-- made ahead by server/db/day-partitions.ts, plus a DEFAULT partition for anything outside them. A partitioned table's
-- keys must hold the partition key: the primary key becomes (id, at) (ids come from the identity, never from a caller).
-- Existing rows are copied once.
--
-- The day partition of any table partitioned by day (heart_rate_samples: UTC days, migration 0045; access_logs: China
-- days): <table>_YYYYMMDD, the day [00:00, next 00:00) in `zone`. Created once (the caller holds the partitions'
-- advisory lock); NULL when rows of that day already sit in the DEFAULT partition (the partition could not be created
-- over them; they stay there and retention removes them by time).
CREATE FUNCTION tiyu_day_partition(parent text, day date, zone text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	name text := parent || '_' || to_char(day, 'YYYYMMDD');
	lo timestamptz := day::timestamp AT TIME ZONE zone;
	hi timestamptz := (day + 1)::timestamp AT TIME ZONE zone;
	crowded boolean;
BEGIN
	IF to_regclass(name) IS NOT NULL THEN
		RETURN name;
	END IF;
	EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE at >= %L AND at < %L)', parent || '_default', lo, hi) INTO crowded;
	IF crowded THEN
		RETURN NULL;
	END IF;
	EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, parent, lo, hi);
	RETURN name;
END $$;
--> statement-breakpoint
-- The heart-rate samples' own function (migration 0045) becomes a call of the shared one (seed and benches call it).
CREATE OR REPLACE FUNCTION heart_rate_partition(day date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM tiyu_day_partition('heart_rate_samples', day, 'UTC');
END $$;
--> statement-breakpoint
ALTER TABLE "access_logs" RENAME TO "access_logs_unpartitioned";
--> statement-breakpoint
ALTER INDEX "access_logs_org_at_idx" RENAME TO "access_logs_unpartitioned_org_at_idx";
--> statement-breakpoint
ALTER INDEX "access_logs_at_idx" RENAME TO "access_logs_unpartitioned_at_idx";
--> statement-breakpoint
CREATE TABLE "access_logs" (LIKE "access_logs_unpartitioned" INCLUDING DEFAULTS INCLUDING IDENTITY) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE TABLE "access_logs_default" PARTITION OF "access_logs" DEFAULT;
--> statement-breakpoint
-- Every China day with rows, today and tomorrow.
SELECT tiyu_day_partition('access_logs', d::date, 'Asia/Shanghai')
  FROM generate_series(
    least(
      (SELECT min((at AT TIME ZONE 'Asia/Shanghai')::date) FROM access_logs_unpartitioned),
      (now() AT TIME ZONE 'Asia/Shanghai')::date),
    (now() AT TIME ZONE 'Asia/Shanghai')::date + 1,
    interval '1 day') AS d
 WHERE d::date = (now() AT TIME ZONE 'Asia/Shanghai')::date OR d::date = (now() AT TIME ZONE 'Asia/Shanghai')::date + 1
    OR EXISTS (SELECT 1 FROM access_logs_unpartitioned u
                WHERE u.at >= d::date::timestamp AT TIME ZONE 'Asia/Shanghai' AND u.at < (d::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai');
--> statement-breakpoint
INSERT INTO "access_logs" OVERRIDING SYSTEM VALUE SELECT * FROM "access_logs_unpartitioned";
--> statement-breakpoint
-- The new identity continues after the copied ids.
SELECT setval(pg_get_serial_sequence('access_logs', 'id'), coalesce((SELECT max(id) FROM access_logs), 0) + 1, false);
--> statement-breakpoint
DROP TABLE "access_logs_unpartitioned";
--> statement-breakpoint
ALTER TABLE "access_logs" ADD CONSTRAINT "access_logs_id_at_pk" PRIMARY KEY ("id", "at");
--> statement-breakpoint
CREATE INDEX "access_logs_org_at_idx" ON "access_logs" USING btree ("org_id", "at");
--> statement-breakpoint
CREATE INDEX "access_logs_at_idx" ON "access_logs" USING btree ("at");
--> statement-breakpoint
-- The change feed's triggers on the new parent (tiyu_ensure_change_triggers, migration 0053: partitions get none).
SELECT tiyu_ensure_change_triggers();
