CREATE TABLE "conversion_tables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"stage" text NOT NULL,
	"year" smallint NOT NULL,
	"basis" text NOT NULL,
	"max_points" double precision NOT NULL,
	"rows" jsonb NOT NULL,
	"note" text,
	"sample" boolean DEFAULT false NOT NULL,
	"table_version" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_conversions" (
	"plan_id" uuid PRIMARY KEY NOT NULL,
	"table_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"plan_id" uuid,
	"student_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_releases" (
	"plan_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"released_by" uuid,
	"released_at" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_day_check_ins" (
	"station_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"checked_in_by" uuid,
	"checked_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_day_check_ins_station_id_student_id_pk" PRIMARY KEY("station_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "test_day_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"station_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"field" text NOT NULL,
	"value" double precision NOT NULL,
	"status" text DEFAULT 'entered' NOT NULL,
	"source" text NOT NULL,
	"record_id" uuid,
	"device_sn" text,
	"out_of_range" boolean DEFAULT false NOT NULL,
	"entered_by" uuid,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_by" uuid,
	"confirmed_at" timestamp with time zone,
	"appeal_note" text,
	"appeal_video_file_id" uuid,
	"appealed_by" uuid,
	"appealed_at" timestamp with time zone,
	"resolution" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"resolution_note" text,
	"original_value" double precision,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_day_station_devices" (
	"station_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	CONSTRAINT "test_day_station_devices_station_id_device_id_pk" PRIMARY KEY("station_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "test_day_station_teachers" (
	"station_id" uuid NOT NULL,
	"teacher_id" uuid NOT NULL,
	CONSTRAINT "test_day_station_teachers_station_id_teacher_id_pk" PRIMARY KEY("station_id","teacher_id")
);
--> statement-breakpoint
CREATE TABLE "test_day_stations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"name" text NOT NULL,
	"items" text[] NOT NULL,
	"venue_id" uuid,
	"note" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
ALTER TABLE "physique_result_counts" ADD COLUMN "exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "physique_results" ADD COLUMN "exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "conversion_tables" ADD CONSTRAINT "conversion_tables_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversion_tables" ADD CONSTRAINT "conversion_tables_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_conversions" ADD CONSTRAINT "plan_conversions_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_conversions" ADD CONSTRAINT "plan_conversions_table_id_conversion_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."conversion_tables"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_notifications" ADD CONSTRAINT "app_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_notifications" ADD CONSTRAINT "app_notifications_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_notifications" ADD CONSTRAINT "app_notifications_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_notifications" ADD CONSTRAINT "app_notifications_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_releases" ADD CONSTRAINT "report_releases_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_releases" ADD CONSTRAINT "report_releases_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_releases" ADD CONSTRAINT "report_releases_released_by_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_check_ins" ADD CONSTRAINT "test_day_check_ins_station_id_test_day_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."test_day_stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_check_ins" ADD CONSTRAINT "test_day_check_ins_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_check_ins" ADD CONSTRAINT "test_day_check_ins_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_check_ins" ADD CONSTRAINT "test_day_check_ins_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_check_ins" ADD CONSTRAINT "test_day_check_ins_checked_in_by_users_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_station_id_test_day_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."test_day_stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_record_id_test_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."test_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_appeal_video_file_id_files_id_fk" FOREIGN KEY ("appeal_video_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_appealed_by_users_id_fk" FOREIGN KEY ("appealed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_entries" ADD CONSTRAINT "test_day_entries_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_station_devices" ADD CONSTRAINT "test_day_station_devices_station_id_test_day_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."test_day_stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_station_devices" ADD CONSTRAINT "test_day_station_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_station_teachers" ADD CONSTRAINT "test_day_station_teachers_station_id_test_day_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."test_day_stations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_station_teachers" ADD CONSTRAINT "test_day_station_teachers_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_stations" ADD CONSTRAINT "test_day_stations_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_stations" ADD CONSTRAINT "test_day_stations_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_day_stations" ADD CONSTRAINT "test_day_stations_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
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
CREATE UNIQUE INDEX "conversion_tables_version_uq" ON "conversion_tables" USING btree ("org_id","stage","year","table_version");--> statement-breakpoint
CREATE INDEX "plan_conversions_table_idx" ON "plan_conversions" USING btree ("table_id");--> statement-breakpoint
CREATE INDEX "app_notifications_user_idx" ON "app_notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "app_notifications_unread_idx" ON "app_notifications" USING btree ("user_id") WHERE "app_notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "app_notifications_plan_idx" ON "app_notifications" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "test_day_check_ins_plan_idx" ON "test_day_check_ins" USING btree ("plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_day_entries_plan_student_field_uq" ON "test_day_entries" USING btree ("plan_id","student_id","field");--> statement-breakpoint
CREATE INDEX "test_day_entries_station_idx" ON "test_day_entries" USING btree ("station_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "test_day_stations_plan_name_uq" ON "test_day_stations" USING btree ("plan_id","name");--> statement-breakpoint
CREATE INDEX "test_day_stations_org_idx" ON "test_day_stations" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "warning_case_events_case_idx" ON "warning_case_events" USING btree ("case_id","at");--> statement-breakpoint
CREATE INDEX "warning_case_trainings_plan_idx" ON "warning_case_trainings" USING btree ("training_plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "warning_cases_student_year_kind_uq" ON "warning_cases" USING btree ("student_id","school_year_id","kind");--> statement-breakpoint
CREATE INDEX "warning_cases_org_year_idx" ON "warning_cases" USING btree ("org_id","school_year_id","status");--> statement-breakpoint
ALTER TABLE "physique_result_counts" DROP CONSTRAINT "physique_result_counts_pk";
--> statement-breakpoint
ALTER TABLE "physique_result_counts" ADD CONSTRAINT "physique_result_counts_pk" PRIMARY KEY("org_id","plan_id","class_id","grade_no","gender","invalid","exempt","complete","level");