ALTER TABLE "physique_results" ADD COLUMN "class_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "physique_results" ADD COLUMN "imported_fields" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "physique_results" ADD COLUMN "edited_fields" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- custom: backfill the class name each result had at test time (K12 class names carry the grade, "三年级1班", and the
-- class is renamed as its cohort moves up: the leading grade name is rewritten to the grade the result was tested
-- in), and where each raw value came from (bits as in src/domain/physique-results/value-source.ts: values of an
-- imported result count as imported, values named by an edit in the log as hand-edited, the rest as device values).
UPDATE "physique_results" r SET "class_name" = coalesce(
  (SELECT (ARRAY['一年级','二年级','三年级','四年级','五年级','六年级','七年级','八年级','九年级','高一','高二','高三'])[r."grade_no"] || substr(c."name", char_length(g.prefix) + 1)
     FROM unnest(ARRAY['一年级','二年级','三年级','四年级','五年级','六年级','七年级','八年级','九年级','高一','高二','高三']) AS g(prefix)
    WHERE r."grade_no" BETWEEN 1 AND 12 AND starts_with(c."name", g.prefix) LIMIT 1),
  c."name")
FROM "classes" c WHERE c."id" = r."class_id";--> statement-breakpoint
UPDATE "physique_results" r SET
  "edited_fields" = coalesce((SELECT bit_or(b.bit) FROM "physique_result_logs" l
    JOIN (VALUES ('heightCm',1),('weightKg',2),('vitalCapacity',4),('run50m',8),('sitAndReach',16),('rope1min',32),('sitUp1min',64),('shuttle50x8',128),('pullUp',256),('standingLongJump',512),('run1000m',1024),('run800m',2048)) AS b(field, bit)
      ON b.field = l."field" WHERE l."result_id" = r."id" AND l."action" = 'edit'), 0),
  "imported_fields" = CASE WHEN r."source" = 'import' THEN
    (CASE WHEN r."height_cm" IS NULL THEN 0 ELSE 1 END) | (CASE WHEN r."weight_kg" IS NULL THEN 0 ELSE 2 END)
    | (CASE WHEN r."vital_capacity" IS NULL THEN 0 ELSE 4 END) | (CASE WHEN r."run_50m" IS NULL THEN 0 ELSE 8 END)
    | (CASE WHEN r."sit_and_reach" IS NULL THEN 0 ELSE 16 END) | (CASE WHEN r."rope_1min" IS NULL THEN 0 ELSE 32 END)
    | (CASE WHEN r."sit_up_1min" IS NULL THEN 0 ELSE 64 END) | (CASE WHEN r."shuttle_50x8" IS NULL THEN 0 ELSE 128 END)
    | (CASE WHEN r."pull_up" IS NULL THEN 0 ELSE 256 END) | (CASE WHEN r."standing_long_jump" IS NULL THEN 0 ELSE 512 END)
    | (CASE WHEN r."run_1000m" IS NULL THEN 0 ELSE 1024 END) | (CASE WHEN r."run_800m" IS NULL THEN 0 ELSE 2048 END)
  ELSE 0 END;--> statement-breakpoint
UPDATE "physique_results" SET "imported_fields" = "imported_fields" & ~"edited_fields" WHERE "edited_fields" <> 0;
