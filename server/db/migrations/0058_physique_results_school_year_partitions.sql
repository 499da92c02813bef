-- custom: physique results partitioned by school year (docs/decisions/064-partitions-by-school-year.md). drizzle cannot
-- declare a partitioned table, so this file rebuilds physique_results after the generated migration (which added
-- school_year to the results and their logs): same columns, one partition per school year on school_year (the start
-- year of the plan's school year), made ahead by server/db/school-year-partitions.ts, plus a DEFAULT partition. Keys
-- hold the partition key: primary key (id, school_year); (plan, student, school_year) unique, as unique as (plan,
-- student) was since a plan belongs to one school year; the logs reference (result_id, school_year). Rows are copied
-- once with their plan's year; the rollups stay as they are (same rows).
--
-- tiyu_school_year_partition (migration audit_logs_school_year_partitions) learns tables keyed by the school year's
-- start year itself: their partition holds that one value; tables keyed by an instant keep 1 August to 1 August.
CREATE OR REPLACE FUNCTION tiyu_school_year_partition(parent text, start_year int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	name text := parent || '_sy' || start_year;
	key name;
	by_instant boolean;
	lo text;
	hi text;
	crowded boolean;
BEGIN
	IF to_regclass(name) IS NOT NULL THEN
		RETURN name;
	END IF;
	SELECT a.attname, a.atttypid = 'timestamptz'::regtype INTO key, by_instant
	  FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
	 WHERE p.partrelid = parent::regclass;
	IF by_instant THEN
		lo := make_timestamptz(start_year, 8, 1, 0, 0, 0, 'Asia/Shanghai')::text;
		hi := make_timestamptz(start_year + 1, 8, 1, 0, 0, 0, 'Asia/Shanghai')::text;
	ELSE
		lo := start_year::text;
		hi := (start_year + 1)::text;
	END IF;
	EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= %L AND %I < %L)', parent || '_default', key, lo, key, hi) INTO crowded;
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
ALTER TABLE "physique_results" RENAME TO "physique_results_unpartitioned";
--> statement-breakpoint
CREATE TABLE "physique_results" (LIKE "physique_results_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("school_year");
--> statement-breakpoint
CREATE TABLE "physique_results_default" PARTITION OF "physique_results" DEFAULT;
--> statement-breakpoint
-- Every school year of the school-year table and of the results, the current one and the next.
SELECT tiyu_school_year_partition('physique_results', y)
  FROM (
    SELECT start_year::int AS y FROM school_years
    UNION SELECT extract(year from (now() at time zone 'Asia/Shanghai') - interval '7 months')::int
    UNION SELECT extract(year from (now() at time zone 'Asia/Shanghai') - interval '7 months')::int + 1
  ) AS years ORDER BY y;
--> statement-breakpoint
-- The rows with their plan's school year, set on the old table with its triggers off (the rollups already count these
-- rows; the change feed has nothing to say), then copied before the new table has triggers.
ALTER TABLE "physique_results_unpartitioned" DISABLE TRIGGER USER;
--> statement-breakpoint
UPDATE "physique_results_unpartitioned" r SET school_year = y.start_year FROM test_plans p JOIN school_years y ON y.id = p.school_year_id WHERE p.id = r.plan_id;
--> statement-breakpoint
INSERT INTO "physique_results" SELECT * FROM "physique_results_unpartitioned";
--> statement-breakpoint
DROP TABLE "physique_results_unpartitioned";
--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_id_school_year_pk" PRIMARY KEY ("id", "school_year");
--> statement-breakpoint
CREATE UNIQUE INDEX "physique_results_plan_student_uq" ON "physique_results" USING btree ("plan_id", "student_id", "school_year");
--> statement-breakpoint
CREATE INDEX "physique_results_student_idx" ON "physique_results" USING btree ("student_id");
--> statement-breakpoint
-- The covering indexes of migrations 0012_import, 0033_list11 and 0043_exempt_results_rollups (drizzle cannot declare
-- INCLUDE), now with school_year: the reads name the partition key, and an index-only read needs every column it names.
CREATE INDEX "physique_results_org_grade_idx" ON "physique_results" USING btree ("org_id","grade_no","plan_id") INCLUDE ("student_id","class_id","gender","total","bmi","bmi_score","vital_capacity","vital_capacity_score","run_50m","run_50m_score","sit_and_reach","sit_and_reach_score","rope_1min","rope_1min_score","sit_up_1min","sit_up_1min_score","shuttle_50x8","shuttle_50x8_score","standing_long_jump","standing_long_jump_score","pull_up","pull_up_score","run_1000m","run_1000m_score","run_800m","run_800m_score","exempt","school_year") WHERE not "invalid";
--> statement-breakpoint
CREATE INDEX "physique_results_org_plan_class_idx" ON "physique_results" USING btree ("org_id","plan_id","class_id") INCLUDE ("grade_no","gender","level","complete","invalid","total","student_id","exempt","school_year");
--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id");
--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade;
--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id");
--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id");
--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_invalid_by_users_id_fk" FOREIGN KEY ("invalid_by") REFERENCES "public"."users"("id");
--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id");
--> statement-breakpoint
-- The logs name their result's whole key: the year copied from the result, then the reference. Moving a plan to another
-- school year moves its results (below) and, by ON UPDATE CASCADE, their logs.
UPDATE "physique_result_logs" l SET school_year = r.school_year FROM "physique_results" r WHERE r.id = l.result_id;
--> statement-breakpoint
ALTER TABLE "physique_result_logs" ADD CONSTRAINT "physique_result_logs_result_fk" FOREIGN KEY ("result_id", "school_year") REFERENCES "public"."physique_results"("id", "school_year") ON DELETE cascade ON UPDATE cascade;
--> statement-breakpoint
-- The triggers of the old table, on the parent (statement triggers with transition tables see every partition's rows):
-- the rollups (0002, 0032, 0043), the score list's counts (0034_list12), the exemption flag (0043).
CREATE TRIGGER physique_results_rollup_insert AFTER INSERT ON physique_results REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_rollup_insert();
--> statement-breakpoint
CREATE TRIGGER physique_results_rollup_update AFTER UPDATE ON physique_results REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_rollup_update();
--> statement-breakpoint
CREATE TRIGGER physique_results_rollup_delete AFTER DELETE ON physique_results REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_rollup_delete();
--> statement-breakpoint
CREATE TRIGGER physique_results_counts_insert AFTER INSERT ON physique_results REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_result_counts_insert();
--> statement-breakpoint
CREATE TRIGGER physique_results_counts_update AFTER UPDATE ON physique_results REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_result_counts_update();
--> statement-breakpoint
CREATE TRIGGER physique_results_counts_delete AFTER DELETE ON physique_results REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_result_counts_delete();
--> statement-breakpoint
-- The exemption flag names the partition key, so its update reads only the new rows' years.
CREATE OR REPLACE FUNCTION physique_results_exempt_flag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  update physique_results r set exempt = true
    from new_rows n
    join test_plans tp on tp.id = n.plan_id
    join physique_exemptions e on e.student_id = n.student_id and e.school_year_id = tp.school_year_id and e.status = 'approved' and e.kind = 'exempt'
    where r.id = n.id and r.school_year = n.school_year and not n.exempt;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER physique_results_exempt_flag AFTER INSERT ON physique_results REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_results_exempt_flag();
--> statement-breakpoint
-- A BEFORE ROW trigger cannot move a row to another partition, so every writer sets school_year from the plan; a row
-- whose year is not its plan's (a writer that forgot it: the column's default 0) is refused, once per statement.
CREATE FUNCTION physique_results_school_year_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN test_plans p ON p.id = n.plan_id JOIN school_years y ON y.id = p.school_year_id WHERE y.start_year <> n.school_year) THEN
    RAISE EXCEPTION 'physique result written with a school year that is not its plan''s' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER physique_results_school_year_check AFTER INSERT ON physique_results REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_results_school_year_check();
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_rollup_insert";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_rollup_update";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_rollup_delete";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_counts_insert";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_counts_update";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_counts_delete";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_exempt_flag";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_school_year_check";
--> statement-breakpoint
-- A plan moved to another school year, or a school year whose start year changes, moves its results (and their logs)
-- to that year's partition: an UPDATE of the partition key moves rows between partitions.
CREATE FUNCTION test_plans_move_results() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE physique_results SET school_year = (SELECT start_year FROM school_years WHERE id = NEW.school_year_id)
   WHERE plan_id = NEW.id AND school_year = (SELECT start_year FROM school_years WHERE id = OLD.school_year_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER test_plans_move_results AFTER UPDATE OF school_year_id ON test_plans FOR EACH ROW WHEN (OLD.school_year_id IS DISTINCT FROM NEW.school_year_id) EXECUTE FUNCTION test_plans_move_results();
--> statement-breakpoint
CREATE FUNCTION school_years_move_results() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE physique_results SET school_year = NEW.start_year
   WHERE school_year = OLD.start_year AND plan_id IN (SELECT id FROM test_plans WHERE school_year_id = NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER school_years_move_results AFTER UPDATE OF start_year ON school_years FOR EACH ROW WHEN (OLD.start_year IS DISTINCT FROM NEW.start_year) EXECUTE FUNCTION school_years_move_results();
--> statement-breakpoint
-- A school year's results get their partition when the school year is made (a seed, a school writing last year's
-- results late): the hourly job makes only the current and next years. Only the first school year of a start year
-- creates it, under the partitions' advisory lock (server/db/school-year-partitions.ts), in the inserting transaction;
-- named to fire before school_years_move_results, so a start year changed moves the results into their partition.
CREATE FUNCTION school_years_results_partition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('physique_results_sy' || NEW.start_year) IS NULL THEN
    PERFORM pg_advisory_xact_lock(7461302064);
    PERFORM tiyu_school_year_partition('physique_results', NEW.start_year);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER school_years_make_results_partition AFTER INSERT OR UPDATE OF start_year ON school_years FOR EACH ROW EXECUTE FUNCTION school_years_results_partition();
--> statement-breakpoint
-- The change feed on the new parent (migration audit_logs_school_year_partitions: partitions get none).
SELECT tiyu_ensure_change_triggers();
