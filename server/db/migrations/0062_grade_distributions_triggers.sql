-- custom: grade distribution triggers.
-- The stored distributions of the (plan, grade) groups in `keys` (school_year, plan_id, grade_no), recomputed
-- from physique_results exactly as the grade view computes them (distributionQuery in
-- server/modules/data-center/data-center.service.ts: the same aggregates over the counted results, not invalid, not
-- exempt): per gender and for both ('all'), one row per item with results. Percentiles do not add up, so a touched
-- group is recomputed whole, never adjusted (docs/decisions/008-dashboards-from-rollups.md).
CREATE FUNCTION dc_grade_distributions_recompute(keys jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF keys IS NULL OR jsonb_array_length(keys) = 0 THEN RETURN; END IF;
  delete from dc_grade_distributions d
    using jsonb_to_recordset(keys) k(org_id uuid, school_year int, plan_id uuid, grade_no smallint)
    where d.plan_id = k.plan_id and d.grade_no = k.grade_no;
  insert into dc_grade_distributions (plan_id, grade_no, gender, item, org_id, n, score5, raw5, histogram)
  -- A plan's results are its school's: the rows of its own organisation, as the view reads them (org_id in its scope).
  with k as (select distinct tp.org_id, k.school_year, k.plan_id, k.grade_no from jsonb_to_recordset(keys) k(org_id uuid, school_year int, plan_id uuid, grade_no smallint) join test_plans tp on tp.id = k.plan_id),
  a as (
    select r.org_id, r.plan_id, r.grade_no, coalesce(r.gender, 'all') as gender,
      count(r.bmi_score::float8)::int as n_0,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.bmi_score::float8) as s_0,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.bmi::float8) filter (where r.bmi_score::float8 is not null) as r_0,
      array_agg(least(floor(r.bmi_score::float8 / 10)::int, 9)) filter (where r.bmi_score::float8 is not null) as b_0,
      count(r.vital_capacity_score::float8)::int as n_1,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.vital_capacity_score::float8) as s_1,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.vital_capacity::float8) filter (where r.vital_capacity_score::float8 is not null) as r_1,
      array_agg(least(floor(r.vital_capacity_score::float8 / 10)::int, 9)) filter (where r.vital_capacity_score::float8 is not null) as b_1,
      count(r.run_50m_score::float8)::int as n_2,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.run_50m_score::float8) as s_2,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.run_50m::float8) filter (where r.run_50m_score::float8 is not null) as r_2,
      array_agg(least(floor(r.run_50m_score::float8 / 10)::int, 9)) filter (where r.run_50m_score::float8 is not null) as b_2,
      count(r.sit_and_reach_score::float8)::int as n_3,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.sit_and_reach_score::float8) as s_3,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.sit_and_reach::float8) filter (where r.sit_and_reach_score::float8 is not null) as r_3,
      array_agg(least(floor(r.sit_and_reach_score::float8 / 10)::int, 9)) filter (where r.sit_and_reach_score::float8 is not null) as b_3,
      count(r.rope_1min_score::float8)::int as n_4,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.rope_1min_score::float8) as s_4,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.rope_1min::float8) filter (where r.rope_1min_score::float8 is not null) as r_4,
      array_agg(least(floor(r.rope_1min_score::float8 / 10)::int, 9)) filter (where r.rope_1min_score::float8 is not null) as b_4,
      count(r.sit_up_1min_score::float8)::int as n_5,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.sit_up_1min_score::float8) as s_5,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.sit_up_1min::float8) filter (where r.sit_up_1min_score::float8 is not null) as r_5,
      array_agg(least(floor(r.sit_up_1min_score::float8 / 10)::int, 9)) filter (where r.sit_up_1min_score::float8 is not null) as b_5,
      count(r.shuttle_50x8_score::float8)::int as n_6,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.shuttle_50x8_score::float8) as s_6,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.shuttle_50x8::float8) filter (where r.shuttle_50x8_score::float8 is not null) as r_6,
      array_agg(least(floor(r.shuttle_50x8_score::float8 / 10)::int, 9)) filter (where r.shuttle_50x8_score::float8 is not null) as b_6,
      count(r.standing_long_jump_score::float8)::int as n_7,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.standing_long_jump_score::float8) as s_7,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.standing_long_jump::float8) filter (where r.standing_long_jump_score::float8 is not null) as r_7,
      array_agg(least(floor(r.standing_long_jump_score::float8 / 10)::int, 9)) filter (where r.standing_long_jump_score::float8 is not null) as b_7,
      count(r.pull_up_score::float8)::int as n_8,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.pull_up_score::float8) as s_8,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.pull_up::float8) filter (where r.pull_up_score::float8 is not null) as r_8,
      array_agg(least(floor(r.pull_up_score::float8 / 10)::int, 9)) filter (where r.pull_up_score::float8 is not null) as b_8,
      count(r.run_1000m_score::float8)::int as n_9,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.run_1000m_score::float8) as s_9,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.run_1000m::float8) filter (where r.run_1000m_score::float8 is not null) as r_9,
      array_agg(least(floor(r.run_1000m_score::float8 / 10)::int, 9)) filter (where r.run_1000m_score::float8 is not null) as b_9,
      count(r.run_800m_score::float8)::int as n_10,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.run_800m_score::float8) as s_10,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.run_800m::float8) filter (where r.run_800m_score::float8 is not null) as r_10,
      array_agg(least(floor(r.run_800m_score::float8 / 10)::int, 9)) filter (where r.run_800m_score::float8 is not null) as b_10,
      count(r.total::float8)::int as n_11,
      percentile_cont(array[0, 0.25, 0.5, 0.75, 1]::float8[]) within group (order by r.total::float8) as s_11,
      array_agg(least(floor(r.total::float8 / 10)::int, 11)) filter (where r.total::float8 is not null) as b_11
    from physique_results r join k on r.org_id = k.org_id and r.grade_no = k.grade_no and r.plan_id = k.plan_id and r.school_year = k.school_year
    where not r.invalid and not r.exempt
    group by grouping sets ((r.org_id, r.plan_id, r.grade_no, r.gender), (r.org_id, r.plan_id, r.grade_no))
  )
  select a.plan_id, a.grade_no, a.gender, i.item, a.org_id, i.n, i.s, i.r,
    (select array_agg(coalesce(h.c, 0) order by g.i) from generate_series(0, 11) as g(i) left join (select u.b, count(*)::int as c from unnest(i.b) as u(b) group by u.b) h on h.b = g.i)
  from a cross join lateral (values
    ('bmi', a.n_0, a.s_0, a.r_0, a.b_0),
    ('vitalCapacity', a.n_1, a.s_1, a.r_1, a.b_1),
    ('run50m', a.n_2, a.s_2, a.r_2, a.b_2),
    ('sitAndReach', a.n_3, a.s_3, a.r_3, a.b_3),
    ('rope1min', a.n_4, a.s_4, a.r_4, a.b_4),
    ('sitUp1min', a.n_5, a.s_5, a.r_5, a.b_5),
    ('shuttle50x8', a.n_6, a.s_6, a.r_6, a.b_6),
    ('standingLongJump', a.n_7, a.s_7, a.r_7, a.b_7),
    ('pullUp', a.n_8, a.s_8, a.r_8, a.b_8),
    ('run1000m', a.n_9, a.s_9, a.r_9, a.b_9),
    ('run800m', a.n_10, a.s_10, a.r_10, a.b_10),
    ('total', a.n_11, a.s_11, null::float8[], a.b_11)
  ) as i(item, n, s, r, b)
  where i.n > 0;
END
$$;
--> statement-breakpoint
-- The (plan, grade) groups of a statement's rows, old and new (an edit may move a result to another grade or year).
CREATE FUNCTION dc_grade_distributions_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dc_grade_distributions_recompute((select jsonb_agg(distinct jsonb_build_object('org_id', n.org_id, 'school_year', n.school_year, 'plan_id', n.plan_id, 'grade_no', n.grade_no)) from new_rows n));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION dc_grade_distributions_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dc_grade_distributions_recompute((select jsonb_agg(distinct jsonb_build_object('org_id', x.org_id, 'school_year', x.school_year, 'plan_id', x.plan_id, 'grade_no', x.grade_no))
    from (select o.org_id, o.school_year, o.plan_id, o.grade_no from old_rows o union select n.org_id, n.school_year, n.plan_id, n.grade_no from new_rows n) x));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION dc_grade_distributions_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dc_grade_distributions_recompute((select jsonb_agg(distinct jsonb_build_object('org_id', o.org_id, 'school_year', o.school_year, 'plan_id', o.plan_id, 'grade_no', o.grade_no)) from old_rows o));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Beside the rollup triggers, on the partitioned parent (its statement triggers see every partition's rows), ENABLE
-- ALWAYS so the score import's replica mode (docs/decisions/028-score-import-at-copy-speed.md) still runs them.
CREATE TRIGGER physique_results_distributions_insert AFTER INSERT ON physique_results REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_grade_distributions_insert();
--> statement-breakpoint
CREATE TRIGGER physique_results_distributions_update AFTER UPDATE ON physique_results REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_grade_distributions_update();
--> statement-breakpoint
CREATE TRIGGER physique_results_distributions_delete AFTER DELETE ON physique_results REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dc_grade_distributions_delete();
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_distributions_insert";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_distributions_update";
--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_distributions_delete";
--> statement-breakpoint
-- The results already stored.
SELECT dc_grade_distributions_recompute((select jsonb_agg(distinct jsonb_build_object('org_id', r.org_id, 'school_year', r.school_year, 'plan_id', r.plan_id, 'grade_no', r.grade_no)) from physique_results r));
