CREATE TABLE "lesson_load_class_weeks" (
	"org_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"teacher_id" uuid,
	"week" date NOT NULL,
	"school_year" smallint NOT NULL,
	"semester" smallint NOT NULL,
	"lessons" integer NOT NULL,
	"meets" integer NOT NULL,
	"bpm_sum" double precision,
	"bpm_n" integer NOT NULL,
	"group_sum" double precision,
	"group_n" integer NOT NULL,
	"individual_sum" double precision,
	"individual_n" integer NOT NULL,
	"target_sum" double precision,
	"target_n" integer NOT NULL,
	CONSTRAINT "lesson_load_class_weeks_uq" UNIQUE NULLS NOT DISTINCT("class_id","week","school_year","semester","teacher_id")
);
--> statement-breakpoint
ALTER TABLE "physique_result_logs" DROP CONSTRAINT "physique_result_logs_result_id_physique_results_id_fk";
--> statement-breakpoint
DROP INDEX "physique_results_plan_student_uq";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'access_logs'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "access_logs" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'physique_results'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "physique_results" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
ALTER TABLE "access_log_archives" ADD COLUMN "period_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_log_archives" ADD COLUMN "period_to" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD COLUMN "above" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "export_request_id" uuid;--> statement-breakpoint
ALTER TABLE "physique_result_logs" ADD COLUMN "school_year" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "physique_results" ADD COLUMN "school_year" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lesson_load_class_weeks" ADD CONSTRAINT "lesson_load_class_weeks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_load_class_weeks" ADD CONSTRAINT "lesson_load_class_weeks_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_load_class_weeks_term_idx" ON "lesson_load_class_weeks" USING btree ("org_id","school_year","semester");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_export_request_id_export_requests_id_fk" FOREIGN KEY ("export_request_id") REFERENCES "public"."export_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_log_archives_created_idx" ON "access_log_archives" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "physique_results_plan_student_uq" ON "physique_results" USING btree ("plan_id","student_id","school_year");