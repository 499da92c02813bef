-- Custom migration (decision 051): the per-class-week rollup the term summary's groupings and weekly trend read, for
-- the lessons stored before it existed, and the students' term rollups again with their "above" counts per age (the
-- peaks list they replace is dropped). The same statements as rebuildLessonLoadRollups' (server/modules/lesson-load/
-- lesson-load.store.ts classWeeksOf, insertStudentTerms) with their constants written out: the organisations' time
-- zone Asia/Shanghai, the individual density target 0.5, the "above" thresholds of ages 25 down to 6
-- (src/domain/lesson-load/reports.ts abovePeakByAge). Lessons without a term yet have none until stored again, as in
-- lesson_load_rollups_backfill.
INSERT INTO "lesson_load_class_weeks" ("org_id", "class_id", "teacher_id", "week", "school_year", "semester", "lessons", "meets", "bpm_sum", "bpm_n", "group_sum", "group_n", "individual_sum", "individual_n", "target_sum", "target_n")
SELECT ll."org_id", ll."class_id", l."teacher_id", date_trunc('week', ll."started_at" AT TIME ZONE 'Asia/Shanghai')::date, ll."school_year", ll."semester",
       count(*)::int, count(*) FILTER (WHERE ll."meets_targets")::int,
       sum(ll."main_mean_bpm"::float8), count(ll."main_mean_bpm")::int, sum(ll."group_density"::float8), count(ll."group_density")::int,
       sum(ll."individual_density"::float8), count(ll."individual_density")::int, sum(ll."target_share"::float8), count(ll."target_share")::int
  FROM "lesson_loads" ll JOIN "lessons" l ON l."id" = ll."lesson_id"
 WHERE ll."school_year" IS NOT NULL
 GROUP BY ll."org_id", ll."class_id", l."teacher_id", date_trunc('week', ll."started_at" AT TIME ZONE 'Asia/Shanghai')::date, ll."school_year", ll."semester"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
DELETE FROM "lesson_load_student_terms";
--> statement-breakpoint
INSERT INTO "lesson_load_student_terms" ("student_id", "class_id", "org_id", "school_year", "semester", "lessons", "below", "density_sum", "density_n", "main_bpm_sum", "main_bpm_n", "above")
SELECT s."student_id", s."class_id", s."org_id", s."school_year", s."semester", s."lessons", s."below", s."density_sum", s."density_n", s."main_bpm_sum", s."main_bpm_n",
       array(SELECT (SELECT count(*) FROM unnest(s."peaks") p WHERE p >= u."bpm")::int
               FROM unnest('{166,167,168,169,170,170,171,172,173,174,175,176,176,177,178,179,180,181,182,182}'::int[]) WITH ORDINALITY u("bpm", "o") ORDER BY u."o")
  FROM (SELECT ll."student_id", ll."class_id", ll."org_id", l."school_year", l."semester", count(*)::int AS "lessons",
               count(*) FILTER (WHERE ll."density" < 0.5::real)::int AS "below",
               sum(ll."density"::float8) AS "density_sum", count(ll."density")::int AS "density_n",
               sum(ll."main_mean_bpm"::float8) AS "main_bpm_sum", count(ll."main_mean_bpm")::int AS "main_bpm_n", array_agg(ll."peak_bpm") AS "peaks"
          FROM "lesson_load_students" ll JOIN "lesson_loads" l ON l."lesson_id" = ll."lesson_id"
         WHERE ll."measured" > 0 AND l."school_year" IS NOT NULL
         GROUP BY ll."student_id", ll."class_id", ll."org_id", l."school_year", l."semester") s;
