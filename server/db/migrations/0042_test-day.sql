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
CREATE INDEX "test_day_check_ins_plan_idx" ON "test_day_check_ins" USING btree ("plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_day_entries_plan_student_field_uq" ON "test_day_entries" USING btree ("plan_id","student_id","field");--> statement-breakpoint
CREATE INDEX "test_day_entries_station_idx" ON "test_day_entries" USING btree ("station_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "test_day_stations_plan_name_uq" ON "test_day_stations" USING btree ("plan_id","name");--> statement-breakpoint
CREATE INDEX "test_day_stations_org_idx" ON "test_day_stations" USING btree ("org_id");