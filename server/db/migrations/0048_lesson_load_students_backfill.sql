-- Each stored lesson's students (lesson_loads.students, JSON) as rows of lesson_load_students (decision 051), for the
-- lessons stored before the table existed; the zones' seconds were not kept in the JSON, so those rows hold 0.
INSERT INTO "lesson_load_students" ("lesson_id", "student_id", "org_id", "class_id", "started_at", "measured", "mean_bpm", "main_mean_bpm", "peak_bpm", "density")
SELECT ll."lesson_id", s."studentId", ll."org_id", ll."class_id", ll."started_at", coalesce(s."measured", 0), s."meanBpm", s."mainMeanBpm", s."peakBpm", s."density"
  FROM "lesson_loads" ll
  CROSS JOIN LATERAL jsonb_to_recordset(ll."students") AS s("studentId" uuid, "measured" int, "meanBpm" real, "mainMeanBpm" real, "peakBpm" smallint, "density" real)
  JOIN "students" st ON st."id" = s."studentId"
ON CONFLICT DO NOTHING;
