CREATE TABLE "dc_grade_distributions" (
	"plan_id" uuid NOT NULL,
	"grade_no" smallint NOT NULL,
	"gender" text NOT NULL,
	"item" text NOT NULL,
	"org_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"score5" double precision[],
	"raw5" double precision[],
	"histogram" integer[] NOT NULL,
	CONSTRAINT "dc_grade_distributions_plan_id_grade_no_gender_item_pk" PRIMARY KEY("plan_id","grade_no","gender","item")
);
--> statement-breakpoint
ALTER TABLE "homework_reviews" DROP CONSTRAINT "homework_reviews_record_id_activity_records_id_fk";
--> statement-breakpoint
DROP INDEX "lesson_load_student_terms_org_idx";--> statement-breakpoint
DROP INDEX "activity_records_sender_client_uq";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'activity_records'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "activity_records" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
ALTER TABLE "activity_records" ADD COLUMN "school_year" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "homework_reviews" ADD COLUMN "school_year" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD COLUMN "flagged" boolean;--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD COLUMN "age_on" date;--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD COLUMN "shared" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "lesson_load_student_terms_age_idx" ON "lesson_load_student_terms" USING btree ("org_id","school_year","semester","age_on");--> statement-breakpoint
CREATE INDEX "lesson_load_student_terms_flag_idx" ON "lesson_load_student_terms" USING btree ("org_id","school_year","semester") WHERE "lesson_load_student_terms"."flagged" is not false or "lesson_load_student_terms"."shared";--> statement-breakpoint
CREATE INDEX "students_class_list_idx" ON "students" USING btree ("class_id","student_no","reg_no","id") WHERE enabled;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_records_sender_client_uq" ON "activity_records" USING btree ("sender_key","client_id","school_year");