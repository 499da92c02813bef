-- custom: exempt_results_rollups (docs/product-rules.md#physique-year, "Exemptions"; hand-written: drizzle does not
-- declare trigger functions). A result whose student's school year is approved
-- 免予执行 carries physique_results.exempt: the dc_rollups triggers (0006_perfdb) leave it out like an invalid result,
-- and physique_result_counts (0034_list12) keeps it apart by the new key column, so the score list still lists it
-- while its rates and averages leave it out. The functions below are those migrations' functions with only those
-- changes. physique_results_exempt_flag flags results written after the approval (imports, syncs, edits insert rows):
-- one set-wise update of the new rows of approved-exempt students, whose own update triggers move them out of the
-- counts; ENABLE ALWAYS because the score import writes in replica mode.
CREATE OR REPLACE FUNCTION dc_rollup_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_rollups as r (plan_id, class_id, grade_no, gender, org_id, tested, assessed, lv_excellent, lv_good, lv_pass, lv_fail, total_x10, bmi_normal, bmi_low_weight, bmi_overweight, bmi_obese, bmi_n, bmi_sum, bmi_exc, bmi_fail, vital_capacity_n, vital_capacity_sum, vital_capacity_exc, vital_capacity_fail, run_50m_n, run_50m_sum, run_50m_exc, run_50m_fail, sit_and_reach_n, sit_and_reach_sum, sit_and_reach_exc, sit_and_reach_fail, rope_1min_n, rope_1min_sum, rope_1min_exc, rope_1min_fail, sit_up_1min_n, sit_up_1min_sum, sit_up_1min_exc, sit_up_1min_fail, shuttle_50x8_n, shuttle_50x8_sum, shuttle_50x8_exc, shuttle_50x8_fail, standing_long_jump_n, standing_long_jump_sum, standing_long_jump_exc, standing_long_jump_fail, pull_up_n, pull_up_sum, pull_up_exc, pull_up_fail, run_1000m_n, run_1000m_sum, run_1000m_exc, run_1000m_fail, run_800m_n, run_800m_sum, run_800m_exc, run_800m_fail)
    select d.plan_id, d.class_id, d.grade_no, d.gender, (array_agg(d.org_id order by d.s desc))[1],
      sum(d.s),
      coalesce(sum(d.s) filter (where d.total is not null), 0),
      coalesce(sum(d.s) filter (where d.level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.level = 'good'), 0),
      coalesce(sum(d.s) filter (where d.level = 'pass'), 0),
      coalesce(sum(d.s) filter (where d.level = 'fail'), 0),
      coalesce(sum(d.s * round(d.total * 10)::bigint), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'normal'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'lowWeight'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'overweight'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'obese'), 0),
      coalesce(sum(d.s) filter (where d.bmi_score is not null), 0),
      coalesce(sum(d.s * d.bmi_score), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_score is not null), 0),
      coalesce(sum(d.s * d.vital_capacity_score), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_50m_score is not null), 0),
      coalesce(sum(d.s * d.run_50m_score), 0),
      coalesce(sum(d.s) filter (where d.run_50m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_50m_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_score is not null), 0),
      coalesce(sum(d.s * d.sit_and_reach_score), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_score is not null), 0),
      coalesce(sum(d.s * d.rope_1min_score), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_score is not null), 0),
      coalesce(sum(d.s * d.sit_up_1min_score), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_score is not null), 0),
      coalesce(sum(d.s * d.shuttle_50x8_score), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_score is not null), 0),
      coalesce(sum(d.s * d.standing_long_jump_score), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.pull_up_score is not null), 0),
      coalesce(sum(d.s * d.pull_up_score), 0),
      coalesce(sum(d.s) filter (where d.pull_up_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.pull_up_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_score is not null), 0),
      coalesce(sum(d.s * d.run_1000m_score), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_800m_score is not null), 0),
      coalesce(sum(d.s * d.run_800m_score), 0),
      coalesce(sum(d.s) filter (where d.run_800m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_800m_level = 'fail'), 0)
    from (select 1 as s, new_rows.plan_id, new_rows.class_id, new_rows.grade_no, new_rows.gender, new_rows.org_id, new_rows.total, new_rows.level, new_rows.bmi_score, new_rows.bmi_level, new_rows.vital_capacity_score, new_rows.vital_capacity_level, new_rows.run_50m_score, new_rows.run_50m_level, new_rows.sit_and_reach_score, new_rows.sit_and_reach_level, new_rows.rope_1min_score, new_rows.rope_1min_level, new_rows.sit_up_1min_score, new_rows.sit_up_1min_level, new_rows.shuttle_50x8_score, new_rows.shuttle_50x8_level, new_rows.standing_long_jump_score, new_rows.standing_long_jump_level, new_rows.pull_up_score, new_rows.pull_up_level, new_rows.run_1000m_score, new_rows.run_1000m_level, new_rows.run_800m_score, new_rows.run_800m_level from new_rows where not new_rows.invalid and not new_rows.exempt) d
    group by d.plan_id, d.class_id, d.grade_no, d.gender
    order by d.plan_id, d.class_id, d.grade_no, d.gender
    on conflict (plan_id, class_id, grade_no, gender) do update set
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
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dc_rollup_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_rollups as r (plan_id, class_id, grade_no, gender, org_id, tested, assessed, lv_excellent, lv_good, lv_pass, lv_fail, total_x10, bmi_normal, bmi_low_weight, bmi_overweight, bmi_obese, bmi_n, bmi_sum, bmi_exc, bmi_fail, vital_capacity_n, vital_capacity_sum, vital_capacity_exc, vital_capacity_fail, run_50m_n, run_50m_sum, run_50m_exc, run_50m_fail, sit_and_reach_n, sit_and_reach_sum, sit_and_reach_exc, sit_and_reach_fail, rope_1min_n, rope_1min_sum, rope_1min_exc, rope_1min_fail, sit_up_1min_n, sit_up_1min_sum, sit_up_1min_exc, sit_up_1min_fail, shuttle_50x8_n, shuttle_50x8_sum, shuttle_50x8_exc, shuttle_50x8_fail, standing_long_jump_n, standing_long_jump_sum, standing_long_jump_exc, standing_long_jump_fail, pull_up_n, pull_up_sum, pull_up_exc, pull_up_fail, run_1000m_n, run_1000m_sum, run_1000m_exc, run_1000m_fail, run_800m_n, run_800m_sum, run_800m_exc, run_800m_fail)
    select d.plan_id, d.class_id, d.grade_no, d.gender, (array_agg(d.org_id order by d.s desc))[1],
      sum(d.s),
      coalesce(sum(d.s) filter (where d.total is not null), 0),
      coalesce(sum(d.s) filter (where d.level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.level = 'good'), 0),
      coalesce(sum(d.s) filter (where d.level = 'pass'), 0),
      coalesce(sum(d.s) filter (where d.level = 'fail'), 0),
      coalesce(sum(d.s * round(d.total * 10)::bigint), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'normal'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'lowWeight'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'overweight'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'obese'), 0),
      coalesce(sum(d.s) filter (where d.bmi_score is not null), 0),
      coalesce(sum(d.s * d.bmi_score), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_score is not null), 0),
      coalesce(sum(d.s * d.vital_capacity_score), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_50m_score is not null), 0),
      coalesce(sum(d.s * d.run_50m_score), 0),
      coalesce(sum(d.s) filter (where d.run_50m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_50m_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_score is not null), 0),
      coalesce(sum(d.s * d.sit_and_reach_score), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_score is not null), 0),
      coalesce(sum(d.s * d.rope_1min_score), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_score is not null), 0),
      coalesce(sum(d.s * d.sit_up_1min_score), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_score is not null), 0),
      coalesce(sum(d.s * d.shuttle_50x8_score), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_score is not null), 0),
      coalesce(sum(d.s * d.standing_long_jump_score), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.pull_up_score is not null), 0),
      coalesce(sum(d.s * d.pull_up_score), 0),
      coalesce(sum(d.s) filter (where d.pull_up_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.pull_up_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_score is not null), 0),
      coalesce(sum(d.s * d.run_1000m_score), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_800m_score is not null), 0),
      coalesce(sum(d.s * d.run_800m_score), 0),
      coalesce(sum(d.s) filter (where d.run_800m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_800m_level = 'fail'), 0)
    from (select 1 as s, new_rows.plan_id, new_rows.class_id, new_rows.grade_no, new_rows.gender, new_rows.org_id, new_rows.total, new_rows.level, new_rows.bmi_score, new_rows.bmi_level, new_rows.vital_capacity_score, new_rows.vital_capacity_level, new_rows.run_50m_score, new_rows.run_50m_level, new_rows.sit_and_reach_score, new_rows.sit_and_reach_level, new_rows.rope_1min_score, new_rows.rope_1min_level, new_rows.sit_up_1min_score, new_rows.sit_up_1min_level, new_rows.shuttle_50x8_score, new_rows.shuttle_50x8_level, new_rows.standing_long_jump_score, new_rows.standing_long_jump_level, new_rows.pull_up_score, new_rows.pull_up_level, new_rows.run_1000m_score, new_rows.run_1000m_level, new_rows.run_800m_score, new_rows.run_800m_level from new_rows where not new_rows.invalid and not new_rows.exempt union all select -1 as s, old_rows.plan_id, old_rows.class_id, old_rows.grade_no, old_rows.gender, old_rows.org_id, old_rows.total, old_rows.level, old_rows.bmi_score, old_rows.bmi_level, old_rows.vital_capacity_score, old_rows.vital_capacity_level, old_rows.run_50m_score, old_rows.run_50m_level, old_rows.sit_and_reach_score, old_rows.sit_and_reach_level, old_rows.rope_1min_score, old_rows.rope_1min_level, old_rows.sit_up_1min_score, old_rows.sit_up_1min_level, old_rows.shuttle_50x8_score, old_rows.shuttle_50x8_level, old_rows.standing_long_jump_score, old_rows.standing_long_jump_level, old_rows.pull_up_score, old_rows.pull_up_level, old_rows.run_1000m_score, old_rows.run_1000m_level, old_rows.run_800m_score, old_rows.run_800m_level from old_rows where not old_rows.invalid and not old_rows.exempt) d
    group by d.plan_id, d.class_id, d.grade_no, d.gender
    order by d.plan_id, d.class_id, d.grade_no, d.gender
    on conflict (plan_id, class_id, grade_no, gender) do update set
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
  delete from dc_rollups r using (select distinct plan_id, class_id, grade_no, gender from old_rows) k
    where r.plan_id = k.plan_id and r.class_id = k.class_id and r.grade_no = k.grade_no and r.gender = k.gender and r.tested = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dc_rollup_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into dc_rollups as r (plan_id, class_id, grade_no, gender, org_id, tested, assessed, lv_excellent, lv_good, lv_pass, lv_fail, total_x10, bmi_normal, bmi_low_weight, bmi_overweight, bmi_obese, bmi_n, bmi_sum, bmi_exc, bmi_fail, vital_capacity_n, vital_capacity_sum, vital_capacity_exc, vital_capacity_fail, run_50m_n, run_50m_sum, run_50m_exc, run_50m_fail, sit_and_reach_n, sit_and_reach_sum, sit_and_reach_exc, sit_and_reach_fail, rope_1min_n, rope_1min_sum, rope_1min_exc, rope_1min_fail, sit_up_1min_n, sit_up_1min_sum, sit_up_1min_exc, sit_up_1min_fail, shuttle_50x8_n, shuttle_50x8_sum, shuttle_50x8_exc, shuttle_50x8_fail, standing_long_jump_n, standing_long_jump_sum, standing_long_jump_exc, standing_long_jump_fail, pull_up_n, pull_up_sum, pull_up_exc, pull_up_fail, run_1000m_n, run_1000m_sum, run_1000m_exc, run_1000m_fail, run_800m_n, run_800m_sum, run_800m_exc, run_800m_fail)
    select d.plan_id, d.class_id, d.grade_no, d.gender, (array_agg(d.org_id order by d.s desc))[1],
      sum(d.s),
      coalesce(sum(d.s) filter (where d.total is not null), 0),
      coalesce(sum(d.s) filter (where d.level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.level = 'good'), 0),
      coalesce(sum(d.s) filter (where d.level = 'pass'), 0),
      coalesce(sum(d.s) filter (where d.level = 'fail'), 0),
      coalesce(sum(d.s * round(d.total * 10)::bigint), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'normal'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'lowWeight'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'overweight'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'obese'), 0),
      coalesce(sum(d.s) filter (where d.bmi_score is not null), 0),
      coalesce(sum(d.s * d.bmi_score), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.bmi_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_score is not null), 0),
      coalesce(sum(d.s * d.vital_capacity_score), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.vital_capacity_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_50m_score is not null), 0),
      coalesce(sum(d.s * d.run_50m_score), 0),
      coalesce(sum(d.s) filter (where d.run_50m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_50m_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_score is not null), 0),
      coalesce(sum(d.s * d.sit_and_reach_score), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.sit_and_reach_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_score is not null), 0),
      coalesce(sum(d.s * d.rope_1min_score), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.rope_1min_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_score is not null), 0),
      coalesce(sum(d.s * d.sit_up_1min_score), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.sit_up_1min_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_score is not null), 0),
      coalesce(sum(d.s * d.shuttle_50x8_score), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.shuttle_50x8_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_score is not null), 0),
      coalesce(sum(d.s * d.standing_long_jump_score), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.standing_long_jump_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.pull_up_score is not null), 0),
      coalesce(sum(d.s * d.pull_up_score), 0),
      coalesce(sum(d.s) filter (where d.pull_up_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.pull_up_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_score is not null), 0),
      coalesce(sum(d.s * d.run_1000m_score), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_1000m_level = 'fail'), 0),
      coalesce(sum(d.s) filter (where d.run_800m_score is not null), 0),
      coalesce(sum(d.s * d.run_800m_score), 0),
      coalesce(sum(d.s) filter (where d.run_800m_level = 'excellent'), 0),
      coalesce(sum(d.s) filter (where d.run_800m_level = 'fail'), 0)
    from (select -1 as s, old_rows.plan_id, old_rows.class_id, old_rows.grade_no, old_rows.gender, old_rows.org_id, old_rows.total, old_rows.level, old_rows.bmi_score, old_rows.bmi_level, old_rows.vital_capacity_score, old_rows.vital_capacity_level, old_rows.run_50m_score, old_rows.run_50m_level, old_rows.sit_and_reach_score, old_rows.sit_and_reach_level, old_rows.rope_1min_score, old_rows.rope_1min_level, old_rows.sit_up_1min_score, old_rows.sit_up_1min_level, old_rows.shuttle_50x8_score, old_rows.shuttle_50x8_level, old_rows.standing_long_jump_score, old_rows.standing_long_jump_level, old_rows.pull_up_score, old_rows.pull_up_level, old_rows.run_1000m_score, old_rows.run_1000m_level, old_rows.run_800m_score, old_rows.run_800m_level from old_rows where not old_rows.invalid and not old_rows.exempt) d
    group by d.plan_id, d.class_id, d.grade_no, d.gender
    order by d.plan_id, d.class_id, d.grade_no, d.gender
    on conflict (plan_id, class_id, grade_no, gender) do update set
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
  delete from dc_rollups r using (select distinct plan_id, class_id, grade_no, gender from old_rows) k
    where r.plan_id = k.plan_id and r.class_id = k.class_id and r.grade_no = k.grade_no and r.gender = k.gender and r.tested = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION physique_result_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into physique_result_counts as c (org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, level, n, total_x10)
    select d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level, sum(d.s), coalesce(sum(d.s * round(d.total * 10)::bigint), 0)
    from (select 1 as s, org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, coalesce(level, '') as level, total from new_rows) d
    group by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level
    having sum(d.s) <> 0 or coalesce(sum(d.s * round(d.total * 10)::bigint), 0) <> 0
    order by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level
    on conflict on constraint physique_result_counts_pk do update set n = c.n + excluded.n, total_x10 = c.total_x10 + excluded.total_x10;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION physique_result_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into physique_result_counts as c (org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, level, n, total_x10)
    select d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level, sum(d.s), coalesce(sum(d.s * round(d.total * 10)::bigint), 0)
    from (select 1 as s, org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, coalesce(level, '') as level, total from new_rows union all select -1 as s, org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, coalesce(level, '') as level, total from old_rows) d
    group by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level
    having sum(d.s) <> 0 or coalesce(sum(d.s * round(d.total * 10)::bigint), 0) <> 0
    order by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level
    on conflict on constraint physique_result_counts_pk do update set n = c.n + excluded.n, total_x10 = c.total_x10 + excluded.total_x10;
  delete from physique_result_counts c using (select distinct org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, coalesce(level, '') as level from old_rows) k
    where c.org_id = k.org_id and c.plan_id = k.plan_id and c.class_id = k.class_id and c.grade_no = k.grade_no and c.gender = k.gender
      and c.invalid = k.invalid and c.exempt = k.exempt and c.complete = k.complete and c.level = k.level and c.n = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION physique_result_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into physique_result_counts as c (org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, level, n, total_x10)
    select d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level, sum(d.s), coalesce(sum(d.s * round(d.total * 10)::bigint), 0)
    from (select -1 as s, org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, coalesce(level, '') as level, total from old_rows) d
    group by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level
    having sum(d.s) <> 0 or coalesce(sum(d.s * round(d.total * 10)::bigint), 0) <> 0
    order by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.exempt, d.complete, d.level
    on conflict on constraint physique_result_counts_pk do update set n = c.n + excluded.n, total_x10 = c.total_x10 + excluded.total_x10;
  delete from physique_result_counts c using (select distinct org_id, plan_id, class_id, grade_no, gender, invalid, exempt, complete, coalesce(level, '') as level from old_rows) k
    where c.org_id = k.org_id and c.plan_id = k.plan_id and c.class_id = k.class_id and c.grade_no = k.grade_no and c.gender = k.gender
      and c.invalid = k.invalid and c.exempt = k.exempt and c.complete = k.complete and c.level = k.level and c.n = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION physique_results_exempt_flag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  update physique_results r set exempt = true
    from new_rows n
    join test_plans tp on tp.id = n.plan_id
    join physique_exemptions e on e.student_id = n.student_id and e.school_year_id = tp.school_year_id and e.status = 'approved' and e.kind = 'exempt'
    where r.id = n.id and not n.exempt;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER physique_results_exempt_flag AFTER INSERT ON physique_results REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_results_exempt_flag();--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_exempt_flag";--> statement-breakpoint
-- custom: the covering indexes carry `exempt` too, so what reads only them (the grade view's distributions, the score
-- list's summary and pages: INCLUDE lists of 0012_import and 0033_list11) still does with countsInAggregates' new term.
DROP INDEX "physique_results_org_grade_idx";--> statement-breakpoint
CREATE INDEX "physique_results_org_grade_idx" ON "physique_results" USING btree ("org_id","grade_no","plan_id") INCLUDE ("student_id","class_id","gender","total","bmi","bmi_score","vital_capacity","vital_capacity_score","run_50m","run_50m_score","sit_and_reach","sit_and_reach_score","rope_1min","rope_1min_score","sit_up_1min","sit_up_1min_score","shuttle_50x8","shuttle_50x8_score","standing_long_jump","standing_long_jump_score","pull_up","pull_up_score","run_1000m","run_1000m_score","run_800m","run_800m_score","exempt") WHERE not "physique_results"."invalid";--> statement-breakpoint
DROP INDEX "physique_results_org_plan_class_idx";--> statement-breakpoint
CREATE INDEX "physique_results_org_plan_class_idx" ON "physique_results" USING btree ("org_id","plan_id","class_id") INCLUDE ("grade_no","gender","level","complete","invalid","total","student_id","exempt");
