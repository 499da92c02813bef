-- custom: activity records partitioned by school year (docs/decisions/064-partitions-by-school-year.md). drizzle cannot
-- declare a partitioned table, so this file rebuilds activity_records after the generated migration (which added
-- school_year to the records and to the homework reviews that reference them): same columns, one partition per school
-- year on school_year (the start year of the school year measured_at falls in, China days: 1 August to 1 August),
-- made ahead by server/db/school-year-partitions.ts, plus a DEFAULT partition. Keys hold the partition key: primary key
-- (id, school_year); idempotency, one record per (sender, client id), becomes unique (sender_key, client_id,
-- school_year): a resend carries the same measured_at, so the same year, and the ingest looks for a resend whose time
-- moved to another year before it inserts. Rows are copied once with their year; the rollups stay as they are.
ALTER TABLE "homework_reviews" DROP CONSTRAINT IF EXISTS "homework_reviews_record_id_activity_records_id_fk";
--> statement-breakpoint
ALTER TABLE "activity_records" RENAME TO "activity_records_unpartitioned";
--> statement-breakpoint
CREATE TABLE "activity_records" (LIKE "activity_records_unpartitioned" INCLUDING DEFAULTS INCLUDING GENERATED) PARTITION BY RANGE ("school_year");
--> statement-breakpoint
-- The default only served the generated ADD COLUMN: a writer that leaves the year out is refused (NOT NULL).
ALTER TABLE "activity_records" ALTER COLUMN "school_year" DROP DEFAULT;
--> statement-breakpoint
CREATE TABLE "activity_records_default" PARTITION OF "activity_records" DEFAULT;
--> statement-breakpoint
-- Every school year with records or in the school-year table, the current one and the next.
SELECT tiyu_school_year_partition('activity_records', y)
  FROM (
    SELECT DISTINCT extract(year from (measured_at at time zone 'Asia/Shanghai') - interval '7 months')::int AS y FROM "activity_records_unpartitioned"
    UNION SELECT start_year::int FROM school_years
    UNION SELECT extract(year from (now() at time zone 'Asia/Shanghai') - interval '7 months')::int
    UNION SELECT extract(year from (now() at time zone 'Asia/Shanghai') - interval '7 months')::int + 1
  ) AS years ORDER BY y;
--> statement-breakpoint
-- Copied before the new table has triggers (the rollups already count these rows; the change feed has nothing to say).
INSERT INTO "activity_records" ("id", "school_year", "org_id", "student_id", "class_id", "kind", "ref_id", "item", "value", "duration_s", "measured_at", "received_at", "source", "device_id", "submitted_by", "client_id", "video_file_id", "invalid", "invalid_reason", "invalid_at", "invalid_by")
  SELECT "id", extract(year from ("measured_at" at time zone 'Asia/Shanghai') - interval '7 months')::int, "org_id", "student_id", "class_id", "kind", "ref_id", "item", "value", "duration_s", "measured_at", "received_at", "source", "device_id", "submitted_by", "client_id", "video_file_id", "invalid", "invalid_reason", "invalid_at", "invalid_by"
  FROM "activity_records_unpartitioned";
--> statement-breakpoint
DROP TABLE "activity_records_unpartitioned";
--> statement-breakpoint
-- PostgreSQL cannot move a row to another partition from a BEFORE ROW trigger, and a generated column cannot be a
-- partition key: every writer sets the year, and a row whose year is not its time's is refused (per row, no lookup).
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_school_year_ck" CHECK ("school_year" = extract(year from ("measured_at" at time zone 'Asia/Shanghai') - interval '7 months'));
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_id_school_year_pk" PRIMARY KEY ("id", "school_year");
--> statement-breakpoint
CREATE UNIQUE INDEX "activity_records_sender_client_uq" ON "activity_records" USING btree ("sender_key", "client_id", "school_year");
--> statement-breakpoint
CREATE INDEX "activity_records_org_time_idx" ON "activity_records" USING btree ("org_id", "measured_at");
--> statement-breakpoint
CREATE INDEX "activity_records_ref_idx" ON "activity_records" USING btree ("kind", "ref_id", "student_id");
--> statement-breakpoint
CREATE INDEX "activity_records_student_item_idx" ON "activity_records" USING btree ("student_id", "item", "measured_at");
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id");
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id");
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id");
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id");
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id");
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_video_file_id_files_id_fk" FOREIGN KEY ("video_file_id") REFERENCES "public"."files"("id");
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_invalid_by_users_id_fk" FOREIGN KEY ("invalid_by") REFERENCES "public"."users"("id");
--> statement-breakpoint
-- The reviews name their record's whole key: the year copied from the record, then the reference.
UPDATE "homework_reviews" v SET school_year = r.school_year FROM "activity_records" r WHERE r.id = v.record_id;
--> statement-breakpoint
ALTER TABLE "homework_reviews" ADD CONSTRAINT "homework_reviews_record_fk" FOREIGN KEY ("record_id", "school_year") REFERENCES "public"."activity_records"("id", "school_year") ON DELETE cascade;
--> statement-breakpoint
-- The triggers of the old table, on the parent (statement triggers with transition tables see every partition's rows):
-- the contest boards (0020_contests, 0025_ingestspeed) and the participation counts (0031_content).
CREATE TRIGGER activity_records_contest_insert AFTER INSERT ON activity_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contest_scores_insert();
--> statement-breakpoint
CREATE TRIGGER activity_records_contest_update AFTER UPDATE ON activity_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contest_scores_update();
--> statement-breakpoint
CREATE TRIGGER activity_records_contest_delete AFTER DELETE ON activity_records REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contest_scores_delete();
--> statement-breakpoint
CREATE TRIGGER activity_records_participation_insert AFTER INSERT ON activity_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_participation_insert();
--> statement-breakpoint
CREATE TRIGGER activity_records_participation_update AFTER UPDATE ON activity_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_participation_update();
--> statement-breakpoint
CREATE TRIGGER activity_records_participation_delete AFTER DELETE ON activity_records REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_participation_delete();
--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_contest_insert";
--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_contest_update";
--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_contest_delete";
--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_participation_insert";
--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_participation_update";
--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_participation_delete";
--> statement-breakpoint
-- A school year made (a seed, records of another year) makes its records' partition too, like its results' (migration
-- physique_results_school_year_partitions): the hourly job makes only the current and next years.
CREATE OR REPLACE FUNCTION school_years_results_partition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('physique_results_sy' || NEW.start_year) IS NULL OR to_regclass('activity_records_sy' || NEW.start_year) IS NULL THEN
    PERFORM pg_advisory_xact_lock(7461302064);
    PERFORM tiyu_school_year_partition('physique_results', NEW.start_year);
    PERFORM tiyu_school_year_partition('activity_records', NEW.start_year);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The change feed on the new parent (migration audit_logs_school_year_partitions: partitions get none).
SELECT tiyu_ensure_change_triggers();
