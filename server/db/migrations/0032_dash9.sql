CREATE TABLE "dc_grade_roster" (
	"grade_id" uuid NOT NULL,
	"gender" text NOT NULL,
	"org_id" uuid NOT NULL,
	"students" integer DEFAULT 0 NOT NULL,
	"enabled" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dc_grade_roster_grade_id_gender_pk" PRIMARY KEY("grade_id","gender")
);
--> statement-breakpoint
CREATE TABLE "dc_school_rollups" (
	"plan_id" uuid NOT NULL,
	"grade_no" smallint NOT NULL,
	"gender" text NOT NULL,
	"org_id" uuid NOT NULL,
	"tested" integer DEFAULT 0 NOT NULL,
	"assessed" integer DEFAULT 0 NOT NULL,
	"lv_excellent" integer DEFAULT 0 NOT NULL,
	"lv_good" integer DEFAULT 0 NOT NULL,
	"lv_pass" integer DEFAULT 0 NOT NULL,
	"lv_fail" integer DEFAULT 0 NOT NULL,
	"total_x10" bigint DEFAULT 0 NOT NULL,
	"bmi_normal" integer DEFAULT 0 NOT NULL,
	"bmi_low_weight" integer DEFAULT 0 NOT NULL,
	"bmi_overweight" integer DEFAULT 0 NOT NULL,
	"bmi_obese" integer DEFAULT 0 NOT NULL,
	"bmi_n" integer DEFAULT 0 NOT NULL,
	"bmi_sum" integer DEFAULT 0 NOT NULL,
	"bmi_exc" integer DEFAULT 0 NOT NULL,
	"bmi_fail" integer DEFAULT 0 NOT NULL,
	"vital_capacity_n" integer DEFAULT 0 NOT NULL,
	"vital_capacity_sum" integer DEFAULT 0 NOT NULL,
	"vital_capacity_exc" integer DEFAULT 0 NOT NULL,
	"vital_capacity_fail" integer DEFAULT 0 NOT NULL,
	"run_50m_n" integer DEFAULT 0 NOT NULL,
	"run_50m_sum" integer DEFAULT 0 NOT NULL,
	"run_50m_exc" integer DEFAULT 0 NOT NULL,
	"run_50m_fail" integer DEFAULT 0 NOT NULL,
	"sit_and_reach_n" integer DEFAULT 0 NOT NULL,
	"sit_and_reach_sum" integer DEFAULT 0 NOT NULL,
	"sit_and_reach_exc" integer DEFAULT 0 NOT NULL,
	"sit_and_reach_fail" integer DEFAULT 0 NOT NULL,
	"rope_1min_n" integer DEFAULT 0 NOT NULL,
	"rope_1min_sum" integer DEFAULT 0 NOT NULL,
	"rope_1min_exc" integer DEFAULT 0 NOT NULL,
	"rope_1min_fail" integer DEFAULT 0 NOT NULL,
	"sit_up_1min_n" integer DEFAULT 0 NOT NULL,
	"sit_up_1min_sum" integer DEFAULT 0 NOT NULL,
	"sit_up_1min_exc" integer DEFAULT 0 NOT NULL,
	"sit_up_1min_fail" integer DEFAULT 0 NOT NULL,
	"shuttle_50x8_n" integer DEFAULT 0 NOT NULL,
	"shuttle_50x8_sum" integer DEFAULT 0 NOT NULL,
	"shuttle_50x8_exc" integer DEFAULT 0 NOT NULL,
	"shuttle_50x8_fail" integer DEFAULT 0 NOT NULL,
	"standing_long_jump_n" integer DEFAULT 0 NOT NULL,
	"standing_long_jump_sum" integer DEFAULT 0 NOT NULL,
	"standing_long_jump_exc" integer DEFAULT 0 NOT NULL,
	"standing_long_jump_fail" integer DEFAULT 0 NOT NULL,
	"pull_up_n" integer DEFAULT 0 NOT NULL,
	"pull_up_sum" integer DEFAULT 0 NOT NULL,
	"pull_up_exc" integer DEFAULT 0 NOT NULL,
	"pull_up_fail" integer DEFAULT 0 NOT NULL,
	"run_1000m_n" integer DEFAULT 0 NOT NULL,
	"run_1000m_sum" integer DEFAULT 0 NOT NULL,
	"run_1000m_exc" integer DEFAULT 0 NOT NULL,
	"run_1000m_fail" integer DEFAULT 0 NOT NULL,
	"run_800m_n" integer DEFAULT 0 NOT NULL,
	"run_800m_sum" integer DEFAULT 0 NOT NULL,
	"run_800m_exc" integer DEFAULT 0 NOT NULL,
	"run_800m_fail" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dc_school_rollups_plan_id_grade_no_gender_pk" PRIMARY KEY("plan_id","grade_no","gender")
);
--> statement-breakpoint
CREATE INDEX "dc_grade_roster_org_idx" ON "dc_grade_roster" USING btree ("org_id");--> statement-breakpoint
-- custom: school rollup triggers. dc_school_rollups is dc_rollups added up per plan × grade × gender; statement-level
-- triggers on dc_rollups itself apply each statement's change of its rows as one set-wise delta (+ the new rows' counters,
-- − the old rows'), so whatever keeps dc_rollups (the triggers on physique_results: imports, edits, invalid/restore,
-- sync, deletes, rollover) keeps this table too, in the same transaction. Rows whose tested count reaches 0 are
-- deleted. ENABLE ALWAYS: the score import writes in replica mode (docs/architecture.md, "Score import at COPY speed").
-- Then the existing rollups are added up once.
CREATE FUNCTION dc_school_rollup_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_school_rollups as r (plan_id, grade_no, gender, org_id, tested, assessed, lv_excellent, lv_good, lv_pass, lv_fail, total_x10, bmi_normal, bmi_low_weight, bmi_overweight, bmi_obese, bmi_n, bmi_sum, bmi_exc, bmi_fail, vital_capacity_n, vital_capacity_sum, vital_capacity_exc, vital_capacity_fail, run_50m_n, run_50m_sum, run_50m_exc, run_50m_fail, sit_and_reach_n, sit_and_reach_sum, sit_and_reach_exc, sit_and_reach_fail, rope_1min_n, rope_1min_sum, rope_1min_exc, rope_1min_fail, sit_up_1min_n, sit_up_1min_sum, sit_up_1min_exc, sit_up_1min_fail, shuttle_50x8_n, shuttle_50x8_sum, shuttle_50x8_exc, shuttle_50x8_fail, standing_long_jump_n, standing_long_jump_sum, standing_long_jump_exc, standing_long_jump_fail, pull_up_n, pull_up_sum, pull_up_exc, pull_up_fail, run_1000m_n, run_1000m_sum, run_1000m_exc, run_1000m_fail, run_800m_n, run_800m_sum, run_800m_exc, run_800m_fail)
    select d.plan_id, d.grade_no, d.gender, (array_agg(d.org_id order by d.s desc))[1],
      sum(d.s * d.tested),
      sum(d.s * d.assessed),
      sum(d.s * d.lv_excellent),
      sum(d.s * d.lv_good),
      sum(d.s * d.lv_pass),
      sum(d.s * d.lv_fail),
      sum(d.s * d.total_x10),
      sum(d.s * d.bmi_normal),
      sum(d.s * d.bmi_low_weight),
      sum(d.s * d.bmi_overweight),
      sum(d.s * d.bmi_obese),
      sum(d.s * d.bmi_n),
      sum(d.s * d.bmi_sum),
      sum(d.s * d.bmi_exc),
      sum(d.s * d.bmi_fail),
      sum(d.s * d.vital_capacity_n),
      sum(d.s * d.vital_capacity_sum),
      sum(d.s * d.vital_capacity_exc),
      sum(d.s * d.vital_capacity_fail),
      sum(d.s * d.run_50m_n),
      sum(d.s * d.run_50m_sum),
      sum(d.s * d.run_50m_exc),
      sum(d.s * d.run_50m_fail),
      sum(d.s * d.sit_and_reach_n),
      sum(d.s * d.sit_and_reach_sum),
      sum(d.s * d.sit_and_reach_exc),
      sum(d.s * d.sit_and_reach_fail),
      sum(d.s * d.rope_1min_n),
      sum(d.s * d.rope_1min_sum),
      sum(d.s * d.rope_1min_exc),
      sum(d.s * d.rope_1min_fail),
      sum(d.s * d.sit_up_1min_n),
      sum(d.s * d.sit_up_1min_sum),
      sum(d.s * d.sit_up_1min_exc),
      sum(d.s * d.sit_up_1min_fail),
      sum(d.s * d.shuttle_50x8_n),
      sum(d.s * d.shuttle_50x8_sum),
      sum(d.s * d.shuttle_50x8_exc),
      sum(d.s * d.shuttle_50x8_fail),
      sum(d.s * d.standing_long_jump_n),
      sum(d.s * d.standing_long_jump_sum),
      sum(d.s * d.standing_long_jump_exc),
      sum(d.s * d.standing_long_jump_fail),
      sum(d.s * d.pull_up_n),
      sum(d.s * d.pull_up_sum),
      sum(d.s * d.pull_up_exc),
      sum(d.s * d.pull_up_fail),
      sum(d.s * d.run_1000m_n),
      sum(d.s * d.run_1000m_sum),
      sum(d.s * d.run_1000m_exc),
      sum(d.s * d.run_1000m_fail),
      sum(d.s * d.run_800m_n),
      sum(d.s * d.run_800m_sum),
      sum(d.s * d.run_800m_exc),
      sum(d.s * d.run_800m_fail)
    from (select 1 as s, new_rows.* from new_rows) d
    group by d.plan_id, d.grade_no, d.gender
    order by d.plan_id, d.grade_no, d.gender
    on conflict (plan_id, grade_no, gender) do update set
      org_id = excluded.org_id,
      tested = r.tested + excluded.tested,
      assessed = r.assessed + excluded.assessed,
      lv_excellent = r.lv_excellent + excluded.lv_excellent,
      lv_good = r.lv_good + excluded.lv_good,
      lv_pass = r.lv_pass + excluded.lv_pass,
      lv_fail = r.lv_fail + excluded.lv_fail,
      total_x10 = r.total_x10 + excluded.total_x10,
      bmi_normal = r.bmi_normal + excluded.bmi_normal,
      bmi_low_weight = r.bmi_low_weight + excluded.bmi_low_weight,
      bmi_overweight = r.bmi_overweight + excluded.bmi_overweight,
      bmi_obese = r.bmi_obese + excluded.bmi_obese,
      bmi_n = r.bmi_n + excluded.bmi_n,
      bmi_sum = r.bmi_sum + excluded.bmi_sum,
      bmi_exc = r.bmi_exc + excluded.bmi_exc,
      bmi_fail = r.bmi_fail + excluded.bmi_fail,
      vital_capacity_n = r.vital_capacity_n + excluded.vital_capacity_n,
      vital_capacity_sum = r.vital_capacity_sum + excluded.vital_capacity_sum,
      vital_capacity_exc = r.vital_capacity_exc + excluded.vital_capacity_exc,
      vital_capacity_fail = r.vital_capacity_fail + excluded.vital_capacity_fail,
      run_50m_n = r.run_50m_n + excluded.run_50m_n,
      run_50m_sum = r.run_50m_sum + excluded.run_50m_sum,
      run_50m_exc = r.run_50m_exc + excluded.run_50m_exc,
      run_50m_fail = r.run_50m_fail + excluded.run_50m_fail,
      sit_and_reach_n = r.sit_and_reach_n + excluded.sit_and_reach_n,
      sit_and_reach_sum = r.sit_and_reach_sum + excluded.sit_and_reach_sum,
      sit_and_reach_exc = r.sit_and_reach_exc + excluded.sit_and_reach_exc,
      sit_and_reach_fail = r.sit_and_reach_fail + excluded.sit_and_reach_fail,
      rope_1min_n = r.rope_1min_n + excluded.rope_1min_n,
      rope_1min_sum = r.rope_1min_sum + excluded.rope_1min_sum,
      rope_1min_exc = r.rope_1min_exc + excluded.rope_1min_exc,
      rope_1min_fail = r.rope_1min_fail + excluded.rope_1min_fail,
      sit_up_1min_n = r.sit_up_1min_n + excluded.sit_up_1min_n,
      sit_up_1min_sum = r.sit_up_1min_sum + excluded.sit_up_1min_sum,
      sit_up_1min_exc = r.sit_up_1min_exc + excluded.sit_up_1min_exc,
      sit_up_1min_fail = r.sit_up_1min_fail + excluded.sit_up_1min_fail,
      shuttle_50x8_n = r.shuttle_50x8_n + excluded.shuttle_50x8_n,
      shuttle_50x8_sum = r.shuttle_50x8_sum + excluded.shuttle_50x8_sum,
      shuttle_50x8_exc = r.shuttle_50x8_exc + excluded.shuttle_50x8_exc,
      shuttle_50x8_fail = r.shuttle_50x8_fail + excluded.shuttle_50x8_fail,
      standing_long_jump_n = r.standing_long_jump_n + excluded.standing_long_jump_n,
      standing_long_jump_sum = r.standing_long_jump_sum + excluded.standing_long_jump_sum,
      standing_long_jump_exc = r.standing_long_jump_exc + excluded.standing_long_jump_exc,
      standing_long_jump_fail = r.standing_long_jump_fail + excluded.standing_long_jump_fail,
      pull_up_n = r.pull_up_n + excluded.pull_up_n,
      pull_up_sum = r.pull_up_sum + excluded.pull_up_sum,
      pull_up_exc = r.pull_up_exc + excluded.pull_up_exc,
      pull_up_fail = r.pull_up_fail + excluded.pull_up_fail,
      run_1000m_n = r.run_1000m_n + excluded.run_1000m_n,
      run_1000m_sum = r.run_1000m_sum + excluded.run_1000m_sum,
      run_1000m_exc = r.run_1000m_exc + excluded.run_1000m_exc,
      run_1000m_fail = r.run_1000m_fail + excluded.run_1000m_fail,
      run_800m_n = r.run_800m_n + excluded.run_800m_n,
      run_800m_sum = r.run_800m_sum + excluded.run_800m_sum,
      run_800m_exc = r.run_800m_exc + excluded.run_800m_exc,
      run_800m_fail = r.run_800m_fail + excluded.run_800m_fail;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION dc_school_rollup_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_school_rollups as r (plan_id, grade_no, gender, org_id, tested, assessed, lv_excellent, lv_good, lv_pass, lv_fail, total_x10, bmi_normal, bmi_low_weight, bmi_overweight, bmi_obese, bmi_n, bmi_sum, bmi_exc, bmi_fail, vital_capacity_n, vital_capacity_sum, vital_capacity_exc, vital_capacity_fail, run_50m_n, run_50m_sum, run_50m_exc, run_50m_fail, sit_and_reach_n, sit_and_reach_sum, sit_and_reach_exc, sit_and_reach_fail, rope_1min_n, rope_1min_sum, rope_1min_exc, rope_1min_fail, sit_up_1min_n, sit_up_1min_sum, sit_up_1min_exc, sit_up_1min_fail, shuttle_50x8_n, shuttle_50x8_sum, shuttle_50x8_exc, shuttle_50x8_fail, standing_long_jump_n, standing_long_jump_sum, standing_long_jump_exc, standing_long_jump_fail, pull_up_n, pull_up_sum, pull_up_exc, pull_up_fail, run_1000m_n, run_1000m_sum, run_1000m_exc, run_1000m_fail, run_800m_n, run_800m_sum, run_800m_exc, run_800m_fail)
    select d.plan_id, d.grade_no, d.gender, (array_agg(d.org_id order by d.s desc))[1],
      sum(d.s * d.tested),
      sum(d.s * d.assessed),
      sum(d.s * d.lv_excellent),
      sum(d.s * d.lv_good),
      sum(d.s * d.lv_pass),
      sum(d.s * d.lv_fail),
      sum(d.s * d.total_x10),
      sum(d.s * d.bmi_normal),
      sum(d.s * d.bmi_low_weight),
      sum(d.s * d.bmi_overweight),
      sum(d.s * d.bmi_obese),
      sum(d.s * d.bmi_n),
      sum(d.s * d.bmi_sum),
      sum(d.s * d.bmi_exc),
      sum(d.s * d.bmi_fail),
      sum(d.s * d.vital_capacity_n),
      sum(d.s * d.vital_capacity_sum),
      sum(d.s * d.vital_capacity_exc),
      sum(d.s * d.vital_capacity_fail),
      sum(d.s * d.run_50m_n),
      sum(d.s * d.run_50m_sum),
      sum(d.s * d.run_50m_exc),
      sum(d.s * d.run_50m_fail),
      sum(d.s * d.sit_and_reach_n),
      sum(d.s * d.sit_and_reach_sum),
      sum(d.s * d.sit_and_reach_exc),
      sum(d.s * d.sit_and_reach_fail),
      sum(d.s * d.rope_1min_n),
      sum(d.s * d.rope_1min_sum),
      sum(d.s * d.rope_1min_exc),
      sum(d.s * d.rope_1min_fail),
      sum(d.s * d.sit_up_1min_n),
      sum(d.s * d.sit_up_1min_sum),
      sum(d.s * d.sit_up_1min_exc),
      sum(d.s * d.sit_up_1min_fail),
      sum(d.s * d.shuttle_50x8_n),
      sum(d.s * d.shuttle_50x8_sum),
      sum(d.s * d.shuttle_50x8_exc),
      sum(d.s * d.shuttle_50x8_fail),
      sum(d.s * d.standing_long_jump_n),
      sum(d.s * d.standing_long_jump_sum),
      sum(d.s * d.standing_long_jump_exc),
      sum(d.s * d.standing_long_jump_fail),
      sum(d.s * d.pull_up_n),
      sum(d.s * d.pull_up_sum),
      sum(d.s * d.pull_up_exc),
      sum(d.s * d.pull_up_fail),
      sum(d.s * d.run_1000m_n),
      sum(d.s * d.run_1000m_sum),
      sum(d.s * d.run_1000m_exc),
      sum(d.s * d.run_1000m_fail),
      sum(d.s * d.run_800m_n),
      sum(d.s * d.run_800m_sum),
      sum(d.s * d.run_800m_exc),
      sum(d.s * d.run_800m_fail)
    from (select 1 as s, new_rows.* from new_rows union all select -1 as s, old_rows.* from old_rows) d
    group by d.plan_id, d.grade_no, d.gender
    order by d.plan_id, d.grade_no, d.gender
    on conflict (plan_id, grade_no, gender) do update set
      org_id = excluded.org_id,
      tested = r.tested + excluded.tested,
      assessed = r.assessed + excluded.assessed,
      lv_excellent = r.lv_excellent + excluded.lv_excellent,
      lv_good = r.lv_good + excluded.lv_good,
      lv_pass = r.lv_pass + excluded.lv_pass,
      lv_fail = r.lv_fail + excluded.lv_fail,
      total_x10 = r.total_x10 + excluded.total_x10,
      bmi_normal = r.bmi_normal + excluded.bmi_normal,
      bmi_low_weight = r.bmi_low_weight + excluded.bmi_low_weight,
      bmi_overweight = r.bmi_overweight + excluded.bmi_overweight,
      bmi_obese = r.bmi_obese + excluded.bmi_obese,
      bmi_n = r.bmi_n + excluded.bmi_n,
      bmi_sum = r.bmi_sum + excluded.bmi_sum,
      bmi_exc = r.bmi_exc + excluded.bmi_exc,
      bmi_fail = r.bmi_fail + excluded.bmi_fail,
      vital_capacity_n = r.vital_capacity_n + excluded.vital_capacity_n,
      vital_capacity_sum = r.vital_capacity_sum + excluded.vital_capacity_sum,
      vital_capacity_exc = r.vital_capacity_exc + excluded.vital_capacity_exc,
      vital_capacity_fail = r.vital_capacity_fail + excluded.vital_capacity_fail,
      run_50m_n = r.run_50m_n + excluded.run_50m_n,
      run_50m_sum = r.run_50m_sum + excluded.run_50m_sum,
      run_50m_exc = r.run_50m_exc + excluded.run_50m_exc,
      run_50m_fail = r.run_50m_fail + excluded.run_50m_fail,
      sit_and_reach_n = r.sit_and_reach_n + excluded.sit_and_reach_n,
      sit_and_reach_sum = r.sit_and_reach_sum + excluded.sit_and_reach_sum,
      sit_and_reach_exc = r.sit_and_reach_exc + excluded.sit_and_reach_exc,
      sit_and_reach_fail = r.sit_and_reach_fail + excluded.sit_and_reach_fail,
      rope_1min_n = r.rope_1min_n + excluded.rope_1min_n,
      rope_1min_sum = r.rope_1min_sum + excluded.rope_1min_sum,
      rope_1min_exc = r.rope_1min_exc + excluded.rope_1min_exc,
      rope_1min_fail = r.rope_1min_fail + excluded.rope_1min_fail,
      sit_up_1min_n = r.sit_up_1min_n + excluded.sit_up_1min_n,
      sit_up_1min_sum = r.sit_up_1min_sum + excluded.sit_up_1min_sum,
      sit_up_1min_exc = r.sit_up_1min_exc + excluded.sit_up_1min_exc,
      sit_up_1min_fail = r.sit_up_1min_fail + excluded.sit_up_1min_fail,
      shuttle_50x8_n = r.shuttle_50x8_n + excluded.shuttle_50x8_n,
      shuttle_50x8_sum = r.shuttle_50x8_sum + excluded.shuttle_50x8_sum,
      shuttle_50x8_exc = r.shuttle_50x8_exc + excluded.shuttle_50x8_exc,
      shuttle_50x8_fail = r.shuttle_50x8_fail + excluded.shuttle_50x8_fail,
      standing_long_jump_n = r.standing_long_jump_n + excluded.standing_long_jump_n,
      standing_long_jump_sum = r.standing_long_jump_sum + excluded.standing_long_jump_sum,
      standing_long_jump_exc = r.standing_long_jump_exc + excluded.standing_long_jump_exc,
      standing_long_jump_fail = r.standing_long_jump_fail + excluded.standing_long_jump_fail,
      pull_up_n = r.pull_up_n + excluded.pull_up_n,
      pull_up_sum = r.pull_up_sum + excluded.pull_up_sum,
      pull_up_exc = r.pull_up_exc + excluded.pull_up_exc,
      pull_up_fail = r.pull_up_fail + excluded.pull_up_fail,
      run_1000m_n = r.run_1000m_n + excluded.run_1000m_n,
      run_1000m_sum = r.run_1000m_sum + excluded.run_1000m_sum,
      run_1000m_exc = r.run_1000m_exc + excluded.run_1000m_exc,
      run_1000m_fail = r.run_1000m_fail + excluded.run_1000m_fail,
      run_800m_n = r.run_800m_n + excluded.run_800m_n,
      run_800m_sum = r.run_800m_sum + excluded.run_800m_sum,
      run_800m_exc = r.run_800m_exc + excluded.run_800m_exc,
      run_800m_fail = r.run_800m_fail + excluded.run_800m_fail;
  delete from dc_school_rollups r using (select distinct plan_id, grade_no, gender from old_rows) k
    where r.plan_id = k.plan_id and r.grade_no = k.grade_no and r.gender = k.gender and r.tested = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION dc_school_rollup_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_school_rollups as r (plan_id, grade_no, gender, org_id, tested, assessed, lv_excellent, lv_good, lv_pass, lv_fail, total_x10, bmi_normal, bmi_low_weight, bmi_overweight, bmi_obese, bmi_n, bmi_sum, bmi_exc, bmi_fail, vital_capacity_n, vital_capacity_sum, vital_capacity_exc, vital_capacity_fail, run_50m_n, run_50m_sum, run_50m_exc, run_50m_fail, sit_and_reach_n, sit_and_reach_sum, sit_and_reach_exc, sit_and_reach_fail, rope_1min_n, rope_1min_sum, rope_1min_exc, rope_1min_fail, sit_up_1min_n, sit_up_1min_sum, sit_up_1min_exc, sit_up_1min_fail, shuttle_50x8_n, shuttle_50x8_sum, shuttle_50x8_exc, shuttle_50x8_fail, standing_long_jump_n, standing_long_jump_sum, standing_long_jump_exc, standing_long_jump_fail, pull_up_n, pull_up_sum, pull_up_exc, pull_up_fail, run_1000m_n, run_1000m_sum, run_1000m_exc, run_1000m_fail, run_800m_n, run_800m_sum, run_800m_exc, run_800m_fail)
    select d.plan_id, d.grade_no, d.gender, (array_agg(d.org_id order by d.s desc))[1],
      sum(d.s * d.tested),
      sum(d.s * d.assessed),
      sum(d.s * d.lv_excellent),
      sum(d.s * d.lv_good),
      sum(d.s * d.lv_pass),
      sum(d.s * d.lv_fail),
      sum(d.s * d.total_x10),
      sum(d.s * d.bmi_normal),
      sum(d.s * d.bmi_low_weight),
      sum(d.s * d.bmi_overweight),
      sum(d.s * d.bmi_obese),
      sum(d.s * d.bmi_n),
      sum(d.s * d.bmi_sum),
      sum(d.s * d.bmi_exc),
      sum(d.s * d.bmi_fail),
      sum(d.s * d.vital_capacity_n),
      sum(d.s * d.vital_capacity_sum),
      sum(d.s * d.vital_capacity_exc),
      sum(d.s * d.vital_capacity_fail),
      sum(d.s * d.run_50m_n),
      sum(d.s * d.run_50m_sum),
      sum(d.s * d.run_50m_exc),
      sum(d.s * d.run_50m_fail),
      sum(d.s * d.sit_and_reach_n),
      sum(d.s * d.sit_and_reach_sum),
      sum(d.s * d.sit_and_reach_exc),
      sum(d.s * d.sit_and_reach_fail),
      sum(d.s * d.rope_1min_n),
      sum(d.s * d.rope_1min_sum),
      sum(d.s * d.rope_1min_exc),
      sum(d.s * d.rope_1min_fail),
      sum(d.s * d.sit_up_1min_n),
      sum(d.s * d.sit_up_1min_sum),
      sum(d.s * d.sit_up_1min_exc),
      sum(d.s * d.sit_up_1min_fail),
      sum(d.s * d.shuttle_50x8_n),
      sum(d.s * d.shuttle_50x8_sum),
      sum(d.s * d.shuttle_50x8_exc),
      sum(d.s * d.shuttle_50x8_fail),
      sum(d.s * d.standing_long_jump_n),
      sum(d.s * d.standing_long_jump_sum),
      sum(d.s * d.standing_long_jump_exc),
      sum(d.s * d.standing_long_jump_fail),
      sum(d.s * d.pull_up_n),
      sum(d.s * d.pull_up_sum),
      sum(d.s * d.pull_up_exc),
      sum(d.s * d.pull_up_fail),
      sum(d.s * d.run_1000m_n),
      sum(d.s * d.run_1000m_sum),
      sum(d.s * d.run_1000m_exc),
      sum(d.s * d.run_1000m_fail),
      sum(d.s * d.run_800m_n),
      sum(d.s * d.run_800m_sum),
      sum(d.s * d.run_800m_exc),
      sum(d.s * d.run_800m_fail)
    from (select -1 as s, old_rows.* from old_rows) d
    group by d.plan_id, d.grade_no, d.gender
    order by d.plan_id, d.grade_no, d.gender
    on conflict (plan_id, grade_no, gender) do update set
      org_id = excluded.org_id,
      tested = r.tested + excluded.tested,
      assessed = r.assessed + excluded.assessed,
      lv_excellent = r.lv_excellent + excluded.lv_excellent,
      lv_good = r.lv_good + excluded.lv_good,
      lv_pass = r.lv_pass + excluded.lv_pass,
      lv_fail = r.lv_fail + excluded.lv_fail,
      total_x10 = r.total_x10 + excluded.total_x10,
      bmi_normal = r.bmi_normal + excluded.bmi_normal,
      bmi_low_weight = r.bmi_low_weight + excluded.bmi_low_weight,
      bmi_overweight = r.bmi_overweight + excluded.bmi_overweight,
      bmi_obese = r.bmi_obese + excluded.bmi_obese,
      bmi_n = r.bmi_n + excluded.bmi_n,
      bmi_sum = r.bmi_sum + excluded.bmi_sum,
      bmi_exc = r.bmi_exc + excluded.bmi_exc,
      bmi_fail = r.bmi_fail + excluded.bmi_fail,
      vital_capacity_n = r.vital_capacity_n + excluded.vital_capacity_n,
      vital_capacity_sum = r.vital_capacity_sum + excluded.vital_capacity_sum,
      vital_capacity_exc = r.vital_capacity_exc + excluded.vital_capacity_exc,
      vital_capacity_fail = r.vital_capacity_fail + excluded.vital_capacity_fail,
      run_50m_n = r.run_50m_n + excluded.run_50m_n,
      run_50m_sum = r.run_50m_sum + excluded.run_50m_sum,
      run_50m_exc = r.run_50m_exc + excluded.run_50m_exc,
      run_50m_fail = r.run_50m_fail + excluded.run_50m_fail,
      sit_and_reach_n = r.sit_and_reach_n + excluded.sit_and_reach_n,
      sit_and_reach_sum = r.sit_and_reach_sum + excluded.sit_and_reach_sum,
      sit_and_reach_exc = r.sit_and_reach_exc + excluded.sit_and_reach_exc,
      sit_and_reach_fail = r.sit_and_reach_fail + excluded.sit_and_reach_fail,
      rope_1min_n = r.rope_1min_n + excluded.rope_1min_n,
      rope_1min_sum = r.rope_1min_sum + excluded.rope_1min_sum,
      rope_1min_exc = r.rope_1min_exc + excluded.rope_1min_exc,
      rope_1min_fail = r.rope_1min_fail + excluded.rope_1min_fail,
      sit_up_1min_n = r.sit_up_1min_n + excluded.sit_up_1min_n,
      sit_up_1min_sum = r.sit_up_1min_sum + excluded.sit_up_1min_sum,
      sit_up_1min_exc = r.sit_up_1min_exc + excluded.sit_up_1min_exc,
      sit_up_1min_fail = r.sit_up_1min_fail + excluded.sit_up_1min_fail,
      shuttle_50x8_n = r.shuttle_50x8_n + excluded.shuttle_50x8_n,
      shuttle_50x8_sum = r.shuttle_50x8_sum + excluded.shuttle_50x8_sum,
      shuttle_50x8_exc = r.shuttle_50x8_exc + excluded.shuttle_50x8_exc,
      shuttle_50x8_fail = r.shuttle_50x8_fail + excluded.shuttle_50x8_fail,
      standing_long_jump_n = r.standing_long_jump_n + excluded.standing_long_jump_n,
      standing_long_jump_sum = r.standing_long_jump_sum + excluded.standing_long_jump_sum,
      standing_long_jump_exc = r.standing_long_jump_exc + excluded.standing_long_jump_exc,
      standing_long_jump_fail = r.standing_long_jump_fail + excluded.standing_long_jump_fail,
      pull_up_n = r.pull_up_n + excluded.pull_up_n,
      pull_up_sum = r.pull_up_sum + excluded.pull_up_sum,
      pull_up_exc = r.pull_up_exc + excluded.pull_up_exc,
      pull_up_fail = r.pull_up_fail + excluded.pull_up_fail,
      run_1000m_n = r.run_1000m_n + excluded.run_1000m_n,
      run_1000m_sum = r.run_1000m_sum + excluded.run_1000m_sum,
      run_1000m_exc = r.run_1000m_exc + excluded.run_1000m_exc,
      run_1000m_fail = r.run_1000m_fail + excluded.run_1000m_fail,
      run_800m_n = r.run_800m_n + excluded.run_800m_n,
      run_800m_sum = r.run_800m_sum + excluded.run_800m_sum,
      run_800m_exc = r.run_800m_exc + excluded.run_800m_exc,
      run_800m_fail = r.run_800m_fail + excluded.run_800m_fail;
  delete from dc_school_rollups r using (select distinct plan_id, grade_no, gender from old_rows) k
    where r.plan_id = k.plan_id and r.grade_no = k.grade_no and r.gender = k.gender and r.tested = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER dc_rollups_school_insert AFTER INSERT ON dc_rollups REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_school_rollup_insert();--> statement-breakpoint
CREATE TRIGGER dc_rollups_school_update AFTER UPDATE ON dc_rollups REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_school_rollup_update();--> statement-breakpoint
CREATE TRIGGER dc_rollups_school_delete AFTER DELETE ON dc_rollups REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_school_rollup_delete();--> statement-breakpoint
ALTER TABLE "dc_rollups" ENABLE ALWAYS TRIGGER "dc_rollups_school_insert";--> statement-breakpoint
ALTER TABLE "dc_rollups" ENABLE ALWAYS TRIGGER "dc_rollups_school_update";--> statement-breakpoint
ALTER TABLE "dc_rollups" ENABLE ALWAYS TRIGGER "dc_rollups_school_delete";--> statement-breakpoint
INSERT into dc_school_rollups (plan_id, grade_no, gender, org_id, tested, assessed, lv_excellent, lv_good, lv_pass, lv_fail, total_x10, bmi_normal, bmi_low_weight, bmi_overweight, bmi_obese, bmi_n, bmi_sum, bmi_exc, bmi_fail, vital_capacity_n, vital_capacity_sum, vital_capacity_exc, vital_capacity_fail, run_50m_n, run_50m_sum, run_50m_exc, run_50m_fail, sit_and_reach_n, sit_and_reach_sum, sit_and_reach_exc, sit_and_reach_fail, rope_1min_n, rope_1min_sum, rope_1min_exc, rope_1min_fail, sit_up_1min_n, sit_up_1min_sum, sit_up_1min_exc, sit_up_1min_fail, shuttle_50x8_n, shuttle_50x8_sum, shuttle_50x8_exc, shuttle_50x8_fail, standing_long_jump_n, standing_long_jump_sum, standing_long_jump_exc, standing_long_jump_fail, pull_up_n, pull_up_sum, pull_up_exc, pull_up_fail, run_1000m_n, run_1000m_sum, run_1000m_exc, run_1000m_fail, run_800m_n, run_800m_sum, run_800m_exc, run_800m_fail)
  select plan_id, grade_no, gender, (array_agg(org_id))[1],
    sum(tested),
    sum(assessed),
    sum(lv_excellent),
    sum(lv_good),
    sum(lv_pass),
    sum(lv_fail),
    sum(total_x10),
    sum(bmi_normal),
    sum(bmi_low_weight),
    sum(bmi_overweight),
    sum(bmi_obese),
    sum(bmi_n),
    sum(bmi_sum),
    sum(bmi_exc),
    sum(bmi_fail),
    sum(vital_capacity_n),
    sum(vital_capacity_sum),
    sum(vital_capacity_exc),
    sum(vital_capacity_fail),
    sum(run_50m_n),
    sum(run_50m_sum),
    sum(run_50m_exc),
    sum(run_50m_fail),
    sum(sit_and_reach_n),
    sum(sit_and_reach_sum),
    sum(sit_and_reach_exc),
    sum(sit_and_reach_fail),
    sum(rope_1min_n),
    sum(rope_1min_sum),
    sum(rope_1min_exc),
    sum(rope_1min_fail),
    sum(sit_up_1min_n),
    sum(sit_up_1min_sum),
    sum(sit_up_1min_exc),
    sum(sit_up_1min_fail),
    sum(shuttle_50x8_n),
    sum(shuttle_50x8_sum),
    sum(shuttle_50x8_exc),
    sum(shuttle_50x8_fail),
    sum(standing_long_jump_n),
    sum(standing_long_jump_sum),
    sum(standing_long_jump_exc),
    sum(standing_long_jump_fail),
    sum(pull_up_n),
    sum(pull_up_sum),
    sum(pull_up_exc),
    sum(pull_up_fail),
    sum(run_1000m_n),
    sum(run_1000m_sum),
    sum(run_1000m_exc),
    sum(run_1000m_fail),
    sum(run_800m_n),
    sum(run_800m_sum),
    sum(run_800m_exc),
    sum(run_800m_fail)
  from dc_rollups group by plan_id, grade_no, gender;
--> statement-breakpoint
-- custom: grade roster triggers. dc_grade_roster is dc_roster added up per grade (the class's grade) and gender: the
-- triggers on dc_roster apply each statement's change of its rows (+ new, − old) under the class's grade, and a
-- trigger on classes moves a class's counts when its grade changes; rows whose students reach 0 are deleted. ENABLE
-- ALWAYS like the rollups'. Then the existing roster is added up once.
CREATE FUNCTION dc_grade_roster_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_grade_roster as r (grade_id, gender, org_id, students, enabled)
    select c.grade_id, d.gender, (array_agg(d.org_id order by d.s desc))[1], sum(d.s * d.students), sum(d.s * d.enabled)
    from (select 1 as s, new_rows.class_id, new_rows.gender, new_rows.org_id, new_rows.students, new_rows.enabled from new_rows) d
    join classes c on c.id = d.class_id
    group by c.grade_id, d.gender
    order by c.grade_id, d.gender
    on conflict (grade_id, gender) do update set org_id = excluded.org_id, students = r.students + excluded.students, enabled = r.enabled + excluded.enabled;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION dc_grade_roster_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_grade_roster as r (grade_id, gender, org_id, students, enabled)
    select c.grade_id, d.gender, (array_agg(d.org_id order by d.s desc))[1], sum(d.s * d.students), sum(d.s * d.enabled)
    from (select 1 as s, new_rows.class_id, new_rows.gender, new_rows.org_id, new_rows.students, new_rows.enabled from new_rows
      union all select -1 as s, old_rows.class_id, old_rows.gender, old_rows.org_id, old_rows.students, old_rows.enabled from old_rows) d
    join classes c on c.id = d.class_id
    group by c.grade_id, d.gender
    order by c.grade_id, d.gender
    on conflict (grade_id, gender) do update set org_id = excluded.org_id, students = r.students + excluded.students, enabled = r.enabled + excluded.enabled;
  delete from dc_grade_roster r using (select distinct c.grade_id, old_rows.gender from old_rows join classes c on c.id = old_rows.class_id) k
    where r.grade_id = k.grade_id and r.gender = k.gender and r.students = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION dc_grade_roster_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_grade_roster as r (grade_id, gender, org_id, students, enabled)
    select c.grade_id, d.gender, (array_agg(d.org_id order by d.s desc))[1], sum(d.s * d.students), sum(d.s * d.enabled)
    from (select -1 as s, old_rows.class_id, old_rows.gender, old_rows.org_id, old_rows.students, old_rows.enabled from old_rows) d
    join classes c on c.id = d.class_id
    group by c.grade_id, d.gender
    order by c.grade_id, d.gender
    on conflict (grade_id, gender) do update set org_id = excluded.org_id, students = r.students + excluded.students, enabled = r.enabled + excluded.enabled;
  delete from dc_grade_roster r using (select distinct c.grade_id, old_rows.gender from old_rows join classes c on c.id = old_rows.class_id) k
    where r.grade_id = k.grade_id and r.gender = k.gender and r.students = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION dc_grade_roster_class_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_grade_roster as r (grade_id, gender, org_id, students, enabled)
    select m.grade_id, x.gender, (array_agg(x.org_id order by m.s desc))[1], sum(m.s * x.students), sum(m.s * x.enabled)
    from (select 1 as s, n.id, n.grade_id from new_rows n join old_rows o on o.id = n.id where o.grade_id <> n.grade_id
      union all select -1 as s, o.id, o.grade_id from old_rows o join new_rows n on n.id = o.id where o.grade_id <> n.grade_id) m
    join dc_roster x on x.class_id = m.id
    group by m.grade_id, x.gender
    order by m.grade_id, x.gender
    on conflict (grade_id, gender) do update set org_id = excluded.org_id, students = r.students + excluded.students, enabled = r.enabled + excluded.enabled;
  delete from dc_grade_roster r using (select o.grade_id from old_rows o join new_rows n on n.id = o.id where o.grade_id <> n.grade_id) k
    where r.grade_id = k.grade_id and r.students = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER dc_roster_grade_insert AFTER INSERT ON dc_roster REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_grade_roster_insert();--> statement-breakpoint
CREATE TRIGGER dc_roster_grade_update AFTER UPDATE ON dc_roster REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_grade_roster_update();--> statement-breakpoint
CREATE TRIGGER dc_roster_grade_delete AFTER DELETE ON dc_roster REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_grade_roster_delete();--> statement-breakpoint
CREATE TRIGGER classes_grade_roster_move AFTER UPDATE ON classes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_grade_roster_class_move();--> statement-breakpoint
ALTER TABLE "dc_roster" ENABLE ALWAYS TRIGGER "dc_roster_grade_insert";--> statement-breakpoint
ALTER TABLE "dc_roster" ENABLE ALWAYS TRIGGER "dc_roster_grade_update";--> statement-breakpoint
ALTER TABLE "dc_roster" ENABLE ALWAYS TRIGGER "dc_roster_grade_delete";--> statement-breakpoint
ALTER TABLE "classes" ENABLE ALWAYS TRIGGER "classes_grade_roster_move";--> statement-breakpoint
INSERT into dc_grade_roster (grade_id, gender, org_id, students, enabled)
  select c.grade_id, r.gender, (array_agg(r.org_id))[1], sum(r.students), sum(r.enabled)
  from dc_roster r join classes c on c.id = r.class_id group by c.grade_id, r.gender;
