-- Custom migration (decision 051): the term each stored lesson is counted in, then the two rollups the term and
-- district reports read, for the lessons stored before they existed. The same statements as assignTerms and
-- rebuildLessonLoadRollups (server/modules/lesson-load/lesson-load.store.ts) with their constants written out:
-- the organisations' time zone Asia/Shanghai, semester codes autumn 13 / spring 11.
UPDATE "lesson_loads" ll SET "school_year" = t."school_year", "semester" = t."semester"
  FROM (SELECT ll."lesson_id",
               coalesce(se."start_year", extract(year from d."day")::int - CASE WHEN extract(month from d."day") >= 8 THEN 0 ELSE 1 END) AS "school_year",
               coalesce(se."code", CASE WHEN extract(month from d."day") >= 8 OR extract(month from d."day") = 1 THEN 13 ELSE 11 END) AS "semester"
          FROM "lesson_loads" ll CROSS JOIN LATERAL (SELECT (ll."started_at" AT TIME ZONE 'Asia/Shanghai')::date AS "day") d
          LEFT JOIN LATERAL (SELECT sy."start_year", se."code" FROM "semesters" se JOIN "school_years" sy ON sy."id" = se."school_year_id"
                              WHERE se."org_id" = ll."org_id" AND d."day" BETWEEN se."start_date" AND coalesce(se."break_end", se."end_date")
                              ORDER BY se."start_date" DESC LIMIT 1) se ON true
         WHERE ll."school_year" IS NULL) t
 WHERE ll."lesson_id" = t."lesson_id";
--> statement-breakpoint
INSERT INTO "lesson_load_school_days" ("org_id", "day", "school_year", "semester", "lessons", "meets", "bpm_sum", "bpm_n", "group_sum", "group_n", "individual_sum", "individual_n", "target_sum", "target_n")
SELECT ll."org_id", (ll."started_at" AT TIME ZONE 'Asia/Shanghai')::date, ll."school_year", ll."semester",
       count(*)::int, count(*) FILTER (WHERE ll."meets_targets")::int,
       sum(ll."main_mean_bpm"::float8), count(ll."main_mean_bpm")::int, sum(ll."group_density"::float8), count(ll."group_density")::int,
       sum(ll."individual_density"::float8), count(ll."individual_density")::int, sum(ll."target_share"::float8), count(ll."target_share")::int
  FROM "lesson_loads" ll
 GROUP BY ll."org_id", (ll."started_at" AT TIME ZONE 'Asia/Shanghai')::date, ll."school_year", ll."semester"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "lesson_load_student_terms" ("student_id", "class_id", "org_id", "school_year", "semester", "lessons", "below", "density_sum", "density_n", "main_bpm_sum", "main_bpm_n", "peaks")
SELECT ll."student_id", ll."class_id", ll."org_id", l."school_year", l."semester",
       count(*)::int, count(*) FILTER (WHERE ll."density" < 0.5::real)::int,
       sum(ll."density"::float8), count(ll."density")::int, sum(ll."main_mean_bpm"::float8), count(ll."main_mean_bpm")::int,
       coalesce(array_agg(ll."peak_bpm" ORDER BY ll."peak_bpm") FILTER (WHERE ll."peak_bpm" IS NOT NULL), '{}')
  FROM "lesson_load_students" ll JOIN "lesson_loads" l ON l."lesson_id" = ll."lesson_id"
 WHERE ll."measured" > 0
 GROUP BY ll."student_id", ll."class_id", ll."org_id", l."school_year", l."semester"
ON CONFLICT DO NOTHING;
