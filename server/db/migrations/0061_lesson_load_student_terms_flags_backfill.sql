-- Custom migration (decision 051): each student-term row's flag, for the rows stored before it existed, and the
-- triggers that mark a flag unknown when what its age was read from changes.
-- The backfill is storeLessonLoad's (server/modules/lesson-load/lesson-load.store.ts flagStudentTerms) with the rule
-- written out once here: the age as for the zones (src/domain/lesson-load/zones.ts zoneAge) on the term's first day
-- (the school's semester start, else the calendar term's: 1 August for autumn (13), 1 February for spring (11)), from
-- the birth date, else the grade's typical age (5 + grade, 19 from grade 13), clamped to 6–25; `above` holds ages 25
-- down to 6, so the age's count is above[26 - age]; persistently: ≥ 3 lessons and ≥ 60 % of them (reports.ts).
UPDATE "lesson_load_student_terms" t SET "shared" = EXISTS (
  SELECT 1 FROM "lesson_load_student_terms" u
   WHERE u."student_id" = t."student_id" AND u."school_year" = t."school_year" AND u."semester" = t."semester" AND u."class_id" <> t."class_id");
--> statement-breakpoint
UPDATE "lesson_load_student_terms" t SET "age_on" = f."age_on", "flagged" = t."lessons" >= 3
       AND (t."below" >= 0.6::float8 * t."lessons" OR t."above"[26 - f."age"] >= 0.6::float8 * t."lessons")
  FROM (SELECT x."student_id", x."class_id", x."school_year", x."semester", x."age_on",
               least(25, greatest(6, coalesce(extract(year FROM age(x."age_on", st."birth_date"))::int,
                                              CASE WHEN g."grade_no" >= 13 THEN 19 ELSE 5 + g."grade_no" END))) AS "age"
          FROM (SELECT t."student_id", t."class_id", t."school_year", t."semester",
                       coalesce((SELECT se."start_date" FROM "semesters" se JOIN "school_years" sy ON sy."id" = se."school_year_id"
                                  WHERE se."org_id" = t."org_id" AND sy."start_year" = t."school_year" AND se."code" = t."semester" LIMIT 1),
                                CASE WHEN t."semester" = 13 THEN make_date(t."school_year", 8, 1) ELSE make_date(t."school_year" + 1, 2, 1) END) AS "age_on"
                  FROM "lesson_load_student_terms" t) x
          JOIN "students" st ON st."id" = x."student_id" JOIN "classes" c ON c."id" = st."class_id" JOIN "grades" g ON g."id" = c."grade_id") f
 WHERE t."student_id" = f."student_id" AND t."class_id" = f."class_id" AND t."school_year" = f."school_year" AND t."semester" = f."semester";
--> statement-breakpoint
-- A flag's age is read from the student's birth date, else their class's grade: when one of those changes, whoever
-- writes it (screens, imports, the year rollover), the student's flags become unknown (null: the summary reads those
-- rows and computes them) until the student's lessons are stored again or the rollups rebuilt.
CREATE FUNCTION lesson_load_student_terms_unflag_students() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "lesson_load_student_terms" t SET "flagged" = NULL
    FROM old_rows o JOIN new_rows n ON n."id" = o."id"
   WHERE t."student_id" = n."id" AND t."flagged" IS NOT NULL
     AND (o."birth_date" IS DISTINCT FROM n."birth_date" OR o."class_id" IS DISTINCT FROM n."class_id");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION lesson_load_student_terms_unflag_classes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "lesson_load_student_terms" t SET "flagged" = NULL
    FROM old_rows o JOIN new_rows n ON n."id" = o."id" JOIN "students" st ON st."class_id" = n."id"
   WHERE o."grade_id" IS DISTINCT FROM n."grade_id" AND st."birth_date" IS NULL AND t."student_id" = st."id" AND t."flagged" IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION lesson_load_student_terms_unflag_grades() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "lesson_load_student_terms" t SET "flagged" = NULL
    FROM old_rows o JOIN new_rows n ON n."id" = o."id" JOIN "classes" c ON c."grade_id" = n."id" JOIN "students" st ON st."class_id" = c."id"
   WHERE o."grade_no" IS DISTINCT FROM n."grade_no" AND st."birth_date" IS NULL AND t."student_id" = st."id" AND t."flagged" IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER students_lesson_load_unflag AFTER UPDATE ON "students" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lesson_load_student_terms_unflag_students();
--> statement-breakpoint
CREATE TRIGGER classes_lesson_load_unflag AFTER UPDATE ON "classes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lesson_load_student_terms_unflag_classes();
--> statement-breakpoint
CREATE TRIGGER grades_lesson_load_unflag AFTER UPDATE ON "grades" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION lesson_load_student_terms_unflag_grades();
--> statement-breakpoint
-- Bulk writers that skip foreign-key triggers (session_replication_role = replica) still keep the flags honest.
ALTER TABLE "students" ENABLE ALWAYS TRIGGER students_lesson_load_unflag;
--> statement-breakpoint
ALTER TABLE "classes" ENABLE ALWAYS TRIGGER classes_lesson_load_unflag;
--> statement-breakpoint
ALTER TABLE "grades" ENABLE ALWAYS TRIGGER grades_lesson_load_unflag;
--> statement-breakpoint
-- The new columns' statistics now (PGlite runs no autovacuum): the summary's plan reads the flagged rows by their index.
ANALYZE "lesson_load_student_terms";
