CREATE TABLE "access_log_archives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"from_id" bigint NOT NULL,
	"to_id" bigint NOT NULL,
	"rows" integer NOT NULL,
	"hash" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"org_id" uuid,
	"user_id" uuid,
	"account_id" uuid,
	"role_id" uuid,
	"device_id" uuid,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"page_key" text,
	"status" smallint NOT NULL,
	"duration_ms" integer NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "lesson_load_school_days" (
	"org_id" uuid NOT NULL,
	"day" date NOT NULL,
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
	CONSTRAINT "lesson_load_school_days_org_id_day_school_year_semester_pk" PRIMARY KEY("org_id","day","school_year","semester")
);
--> statement-breakpoint
CREATE TABLE "lesson_load_student_terms" (
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"school_year" smallint NOT NULL,
	"semester" smallint NOT NULL,
	"lessons" integer NOT NULL,
	"below" integer NOT NULL,
	"density_sum" double precision,
	"density_n" integer NOT NULL,
	"main_bpm_sum" double precision,
	"main_bpm_n" integer NOT NULL,
	"peaks" smallint[] NOT NULL,
	CONSTRAINT "lesson_load_student_terms_student_id_class_id_school_year_semester_pk" PRIMARY KEY("student_id","class_id","school_year","semester")
);
--> statement-breakpoint
DROP INDEX "audit_logs_chain_seq_uq";--> statement-breakpoint
DROP INDEX "lesson_load_students_student_idx";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'audit_logs'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "audit_logs" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
ALTER TABLE "export_requests" ADD COLUMN "path" text;--> statement-breakpoint
ALTER TABLE "lesson_loads" ADD COLUMN "school_year" smallint;--> statement-breakpoint
ALTER TABLE "lesson_loads" ADD COLUMN "semester" smallint;--> statement-breakpoint
ALTER TABLE "access_log_archives" ADD CONSTRAINT "access_log_archives_run_id_retention_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."retention_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_load_school_days" ADD CONSTRAINT "lesson_load_school_days_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD CONSTRAINT "lesson_load_student_terms_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_log_archives_run_idx" ON "access_log_archives" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "access_logs_org_at_idx" ON "access_logs" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "access_logs_at_idx" ON "access_logs" USING btree ("at");--> statement-breakpoint
CREATE INDEX "lesson_load_school_days_term_idx" ON "lesson_load_school_days" USING btree ("org_id","school_year","semester","day");--> statement-breakpoint
CREATE INDEX "lesson_load_student_terms_org_idx" ON "lesson_load_student_terms" USING btree ("org_id","school_year","semester","class_id");--> statement-breakpoint
CREATE INDEX "audit_logs_chain_seq_idx" ON "audit_logs" USING btree (coalesce("org_id", '00000000-0000-0000-0000-000000000000'::uuid),"seq") WHERE "audit_logs"."seq" is not null;--> statement-breakpoint
CREATE INDEX "lesson_load_students_student_idx" ON "lesson_load_students" USING btree ("student_id","started_at");