CREATE TABLE "warning_case_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"note" text,
	"detail" text,
	"training_plan_id" uuid,
	"by_user" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warning_case_trainings" (
	"case_id" uuid NOT NULL,
	"training_plan_id" uuid NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warning_case_trainings_case_id_training_plan_id_pk" PRIMARY KEY("case_id","training_plan_id")
);
--> statement-breakpoint
CREATE TABLE "warning_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"school_year_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"measure" double precision,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_teacher_id" uuid,
	"opened_by" uuid,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warning_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"decline_points" smallint NOT NULL,
	"bmi_bands" jsonb NOT NULL,
	"failing_item" boolean NOT NULL,
	"missing" boolean NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "warning_case_events" ADD CONSTRAINT "warning_case_events_case_id_warning_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."warning_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_case_events" ADD CONSTRAINT "warning_case_events_training_plan_id_training_plans_id_fk" FOREIGN KEY ("training_plan_id") REFERENCES "public"."training_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_case_events" ADD CONSTRAINT "warning_case_events_by_user_users_id_fk" FOREIGN KEY ("by_user") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_case_trainings" ADD CONSTRAINT "warning_case_trainings_case_id_warning_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."warning_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_case_trainings" ADD CONSTRAINT "warning_case_trainings_training_plan_id_training_plans_id_fk" FOREIGN KEY ("training_plan_id") REFERENCES "public"."training_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_cases" ADD CONSTRAINT "warning_cases_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_cases" ADD CONSTRAINT "warning_cases_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_cases" ADD CONSTRAINT "warning_cases_school_year_id_school_years_id_fk" FOREIGN KEY ("school_year_id") REFERENCES "public"."school_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_cases" ADD CONSTRAINT "warning_cases_assigned_teacher_id_teachers_id_fk" FOREIGN KEY ("assigned_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_cases" ADD CONSTRAINT "warning_cases_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_settings" ADD CONSTRAINT "warning_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warning_settings" ADD CONSTRAINT "warning_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "warning_case_events_case_idx" ON "warning_case_events" USING btree ("case_id","at");--> statement-breakpoint
CREATE INDEX "warning_case_trainings_plan_idx" ON "warning_case_trainings" USING btree ("training_plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "warning_cases_student_year_kind_uq" ON "warning_cases" USING btree ("student_id","school_year_id","kind");--> statement-breakpoint
CREATE INDEX "warning_cases_org_year_idx" ON "warning_cases" USING btree ("org_id","school_year_id","status");