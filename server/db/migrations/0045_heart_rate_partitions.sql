-- Raw heart-rate samples are partitioned by day on "at" (docs/decisions/047-heart-rate-storage.md), so retention
-- drops whole days. The generated table is empty here and is replaced by the partitioned one with the same columns.
DROP TABLE "heart_rate_samples";
--> statement-breakpoint
CREATE TABLE "heart_rate_samples" (
	"lesson_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"bpm" smallint NOT NULL,
	"intensity" smallint,
	CONSTRAINT "heart_rate_samples_lesson_id_student_id_at_pk" PRIMARY KEY("lesson_id","student_id","at")
) PARTITION BY RANGE ("at");
--> statement-breakpoint
-- Anything before its day's partition exists lands here; the ingest creates a day's partition before writing it.
CREATE TABLE "heart_rate_samples_default" PARTITION OF "heart_rate_samples" DEFAULT;
--> statement-breakpoint
-- The day's partition (UTC days), created once; safe to call concurrently.
CREATE FUNCTION heart_rate_partition(day date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	name text := 'heart_rate_samples_' || to_char(day, 'YYYYMMDD');
BEGIN
	IF to_regclass(name) IS NULL THEN
		EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF heart_rate_samples FOR VALUES FROM (%L) TO (%L)',
			name, (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
	END IF;
END $$;
