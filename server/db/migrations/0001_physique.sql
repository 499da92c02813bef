CREATE TABLE "screen_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"owner_org_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"name" text NOT NULL,
	"playlist" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	"last_seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "physique_result_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"result_id" uuid NOT NULL,
	"action" text NOT NULL,
	"field" text,
	"old_value" text,
	"new_value" text,
	"by_user" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "physique_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"grade_no" smallint NOT NULL,
	"gender" text NOT NULL,
	"tested_on" date,
	"height_cm" double precision,
	"weight_kg" double precision,
	"bmi" double precision,
	"bmi_score" smallint,
	"bmi_level" text,
	"vital_capacity" double precision,
	"vital_capacity_score" smallint,
	"vital_capacity_level" text,
	"run_50m" double precision,
	"run_50m_score" smallint,
	"run_50m_level" text,
	"sit_and_reach" double precision,
	"sit_and_reach_score" smallint,
	"sit_and_reach_level" text,
	"rope_1min" double precision,
	"rope_1min_score" smallint,
	"rope_1min_level" text,
	"rope_1min_bonus" smallint,
	"sit_up_1min" double precision,
	"sit_up_1min_score" smallint,
	"sit_up_1min_level" text,
	"sit_up_1min_bonus" smallint,
	"shuttle_50x8" double precision,
	"shuttle_50x8_score" smallint,
	"shuttle_50x8_level" text,
	"standing_long_jump" double precision,
	"standing_long_jump_score" smallint,
	"standing_long_jump_level" text,
	"pull_up" double precision,
	"pull_up_score" smallint,
	"pull_up_level" text,
	"pull_up_bonus" smallint,
	"run_1000m" double precision,
	"run_1000m_score" smallint,
	"run_1000m_level" text,
	"run_1000m_bonus" smallint,
	"run_800m" double precision,
	"run_800m_score" smallint,
	"run_800m_level" text,
	"run_800m_bonus" smallint,
	"standard_score" double precision,
	"bonus" double precision,
	"total" double precision,
	"level" text,
	"complete" boolean DEFAULT false NOT NULL,
	"invalid" boolean DEFAULT false NOT NULL,
	"invalid_at" timestamp with time zone,
	"invalid_by" uuid,
	"source" text NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"item" text NOT NULL,
	"raw" double precision NOT NULL,
	"source" text NOT NULL,
	"device_sn" text,
	"tested_at" timestamp with time zone NOT NULL,
	"invalid" boolean DEFAULT false NOT NULL,
	"invalid_at" timestamp with time zone,
	"invalid_by" uuid
);
--> statement-breakpoint
CREATE TABLE "plan_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"file_name" text,
	"success_count" integer,
	"failure_count" integer,
	"error" text,
	"started_by" uuid,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "test_plan_items" (
	"plan_id" uuid NOT NULL,
	"grade_no" smallint NOT NULL,
	"item" text NOT NULL,
	CONSTRAINT "test_plan_items_plan_id_grade_no_item_pk" PRIMARY KEY("plan_id","grade_no","item")
);
--> statement-breakpoint
CREATE TABLE "test_plan_scopes" (
	"plan_id" uuid NOT NULL,
	"grade_id" uuid,
	"class_id" uuid,
	"college_id" uuid
);
--> statement-breakpoint
CREATE TABLE "test_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"school_year_id" uuid NOT NULL,
	"semester_code" smallint NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"ended_at" timestamp with time zone,
	"scope_type" text NOT NULL,
	"standard_version" text DEFAULT '2014' NOT NULL,
	"fee_amount" numeric(12, 3),
	"fee_precision" smallint DEFAULT 2 NOT NULL,
	"fee_rounding" text DEFAULT 'round' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "screen_links" ADD CONSTRAINT "screen_links_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_links" ADD CONSTRAINT "screen_links_owner_org_id_orgs_id_fk" FOREIGN KEY ("owner_org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_links" ADD CONSTRAINT "screen_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_links" ADD CONSTRAINT "screen_links_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_result_logs" ADD CONSTRAINT "physique_result_logs_result_id_physique_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."physique_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_result_logs" ADD CONSTRAINT "physique_result_logs_by_user_users_id_fk" FOREIGN KEY ("by_user") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_invalid_by_users_id_fk" FOREIGN KEY ("invalid_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_results" ADD CONSTRAINT "physique_results_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_records" ADD CONSTRAINT "test_records_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_records" ADD CONSTRAINT "test_records_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_records" ADD CONSTRAINT "test_records_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_records" ADD CONSTRAINT "test_records_invalid_by_users_id_fk" FOREIGN KEY ("invalid_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_jobs" ADD CONSTRAINT "plan_jobs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_jobs" ADD CONSTRAINT "plan_jobs_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_jobs" ADD CONSTRAINT "plan_jobs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_plan_items" ADD CONSTRAINT "test_plan_items_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_plan_scopes" ADD CONSTRAINT "test_plan_scopes_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_plan_scopes" ADD CONSTRAINT "test_plan_scopes_grade_id_grades_id_fk" FOREIGN KEY ("grade_id") REFERENCES "public"."grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_plan_scopes" ADD CONSTRAINT "test_plan_scopes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_plan_scopes" ADD CONSTRAINT "test_plan_scopes_college_id_colleges_id_fk" FOREIGN KEY ("college_id") REFERENCES "public"."colleges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_plans" ADD CONSTRAINT "test_plans_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_plans" ADD CONSTRAINT "test_plans_school_year_id_school_years_id_fk" FOREIGN KEY ("school_year_id") REFERENCES "public"."school_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_plans" ADD CONSTRAINT "test_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "screen_links_token_hash_uq" ON "screen_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "screen_links_owner_idx" ON "screen_links" USING btree ("owner_org_id","created_at");--> statement-breakpoint
CREATE INDEX "screen_links_org_idx" ON "screen_links" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "physique_result_logs_result_idx" ON "physique_result_logs" USING btree ("result_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "physique_results_plan_student_uq" ON "physique_results" USING btree ("plan_id","student_id");--> statement-breakpoint
CREATE INDEX "physique_results_org_plan_class_idx" ON "physique_results" USING btree ("org_id","plan_id","class_id");--> statement-breakpoint
CREATE INDEX "physique_results_student_idx" ON "physique_results" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "physique_results_org_grade_idx" ON "physique_results" USING btree ("org_id","grade_no") WHERE not "physique_results"."invalid";--> statement-breakpoint
CREATE INDEX "test_records_org_time_idx" ON "test_records" USING btree ("org_id","tested_at");--> statement-breakpoint
CREATE INDEX "test_records_student_item_idx" ON "test_records" USING btree ("student_id","item","tested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_jobs_one_running_uq" ON "plan_jobs" USING btree ("plan_id") WHERE "plan_jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "plan_jobs_plan_idx" ON "plan_jobs" USING btree ("plan_id","started_at");--> statement-breakpoint
CREATE INDEX "test_plan_scopes_plan_idx" ON "test_plan_scopes" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "test_plans_org_idx" ON "test_plans" USING btree ("org_id","start_date");