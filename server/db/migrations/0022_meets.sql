CREATE TABLE "meet_athletes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meet_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"grade_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"bib" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meet_certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"background_file_id" uuid,
	"orientation" text DEFAULT 'landscape' NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stamp_id" uuid,
	"stamp_x" double precision,
	"stamp_y" double precision,
	"stamp_size" double precision,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meet_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meet_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"athlete_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"seed_mark" double precision,
	"created_by" uuid,
	"reviewed_by" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meet_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meet_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"result_kind" text NOT NULL,
	"lanes" smallint DEFAULT 0 NOT NULL,
	"heat_size" smallint NOT NULL,
	"class_cap" smallint NOT NULL,
	"rounds" text DEFAULT 'final' NOT NULL,
	"advance_by_place" smallint DEFAULT 0 NOT NULL,
	"final_size" smallint DEFAULT 0 NOT NULL,
	"attempts" smallint DEFAULT 3 NOT NULL,
	"duration" smallint DEFAULT 10 NOT NULL,
	"venue_id" uuid,
	"sort" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meet_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meet_id" uuid NOT NULL,
	"name" text NOT NULL,
	"gender" text NOT NULL,
	"grade_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bib_start" integer NOT NULL,
	"sort" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meet_heats" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meet_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"round" smallint DEFAULT 0 NOT NULL,
	"no" smallint NOT NULL,
	"venue_id" uuid,
	"day" smallint,
	"start_min" smallint,
	"end_min" smallint
);
--> statement-breakpoint
CREATE TABLE "meet_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meet_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"caption" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meet_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"event_name" text NOT NULL,
	"group_name" text NOT NULL,
	"result_kind" text NOT NULL,
	"mark" double precision NOT NULL,
	"holder" text NOT NULL,
	"class_name" text,
	"set_on" date NOT NULL,
	"meet_id" uuid,
	"result_id" uuid,
	"state" text DEFAULT 'current' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meet_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"meet_id" uuid NOT NULL,
	"heat_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"lane" smallint NOT NULL,
	"mark" double precision,
	"attempts" jsonb,
	"failures_at_best" smallint,
	"failures" smallint,
	"status" text DEFAULT 'ok' NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"place" smallint,
	"qualified" boolean DEFAULT false NOT NULL,
	"new_record" boolean DEFAULT false NOT NULL,
	"invalid" boolean DEFAULT false NOT NULL,
	"invalid_reason" text,
	"entered_by" uuid,
	"confirmed_by" uuid,
	"published_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meet_stamps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"file_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"signup_start" date NOT NULL,
	"signup_end" date NOT NULL,
	"morning" jsonb,
	"afternoon" jsonb,
	"venue_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"athlete_cap" smallint DEFAULT 2 NOT NULL,
	"points_table" jsonb NOT NULL,
	"relay_factor" double precision DEFAULT 2 NOT NULL,
	"record_bonus" double precision DEFAULT 0 NOT NULL,
	"changeover" smallint DEFAULT 10 NOT NULL,
	"min_rest" smallint DEFAULT 30 NOT NULL,
	"arrange_state" text DEFAULT 'ungrouped' NOT NULL,
	"draw_seed" integer,
	"draw_mode" text,
	"ended_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meet_athletes" ADD CONSTRAINT "meet_athletes_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_athletes" ADD CONSTRAINT "meet_athletes_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_athletes" ADD CONSTRAINT "meet_athletes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_athletes" ADD CONSTRAINT "meet_athletes_grade_id_grades_id_fk" FOREIGN KEY ("grade_id") REFERENCES "public"."grades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_athletes" ADD CONSTRAINT "meet_athletes_group_id_meet_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."meet_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_certificates" ADD CONSTRAINT "meet_certificates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_certificates" ADD CONSTRAINT "meet_certificates_background_file_id_files_id_fk" FOREIGN KEY ("background_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_certificates" ADD CONSTRAINT "meet_certificates_stamp_id_meet_stamps_id_fk" FOREIGN KEY ("stamp_id") REFERENCES "public"."meet_stamps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD CONSTRAINT "meet_entries_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD CONSTRAINT "meet_entries_event_id_meet_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."meet_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD CONSTRAINT "meet_entries_athlete_id_meet_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."meet_athletes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD CONSTRAINT "meet_entries_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD CONSTRAINT "meet_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD CONSTRAINT "meet_entries_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_events" ADD CONSTRAINT "meet_events_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_events" ADD CONSTRAINT "meet_events_group_id_meet_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."meet_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_events" ADD CONSTRAINT "meet_events_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_groups" ADD CONSTRAINT "meet_groups_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_heats" ADD CONSTRAINT "meet_heats_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_heats" ADD CONSTRAINT "meet_heats_event_id_meet_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."meet_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_heats" ADD CONSTRAINT "meet_heats_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_photos" ADD CONSTRAINT "meet_photos_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_photos" ADD CONSTRAINT "meet_photos_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_records" ADD CONSTRAINT "meet_records_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_records" ADD CONSTRAINT "meet_records_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_records" ADD CONSTRAINT "meet_records_result_id_meet_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."meet_results"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_results" ADD CONSTRAINT "meet_results_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_results" ADD CONSTRAINT "meet_results_heat_id_meet_heats_id_fk" FOREIGN KEY ("heat_id") REFERENCES "public"."meet_heats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_results" ADD CONSTRAINT "meet_results_entry_id_meet_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."meet_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_results" ADD CONSTRAINT "meet_results_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_results" ADD CONSTRAINT "meet_results_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_stamps" ADD CONSTRAINT "meet_stamps_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_stamps" ADD CONSTRAINT "meet_stamps_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meets" ADD CONSTRAINT "meets_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meet_athletes_student_uq" ON "meet_athletes" USING btree ("meet_id","student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_athletes_bib_uq" ON "meet_athletes" USING btree ("meet_id","bib");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_entries_event_athlete_uq" ON "meet_entries" USING btree ("event_id","athlete_id");--> statement-breakpoint
CREATE INDEX "meet_entries_meet_idx" ON "meet_entries" USING btree ("meet_id","status");--> statement-breakpoint
CREATE INDEX "meet_entries_class_idx" ON "meet_entries" USING btree ("event_id","class_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_events_name_uq" ON "meet_events" USING btree ("group_id","name");--> statement-breakpoint
CREATE INDEX "meet_events_meet_idx" ON "meet_events" USING btree ("meet_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_groups_name_uq" ON "meet_groups" USING btree ("meet_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_heats_no_uq" ON "meet_heats" USING btree ("event_id","round","no");--> statement-breakpoint
CREATE INDEX "meet_heats_meet_idx" ON "meet_heats" USING btree ("meet_id");--> statement-breakpoint
CREATE INDEX "meet_photos_meet_idx" ON "meet_photos" USING btree ("meet_id");--> statement-breakpoint
CREATE INDEX "meet_records_org_idx" ON "meet_records" USING btree ("org_id","event_name","group_name");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_records_current_uq" ON "meet_records" USING btree ("org_id","scope","event_name","group_name") WHERE "meet_records"."state" = 'current';--> statement-breakpoint
CREATE UNIQUE INDEX "meet_results_lane_uq" ON "meet_results" USING btree ("heat_id","lane");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_results_entry_uq" ON "meet_results" USING btree ("heat_id","entry_id");--> statement-breakpoint
CREATE INDEX "meet_results_meet_idx" ON "meet_results" USING btree ("meet_id","state");--> statement-breakpoint
CREATE INDEX "meets_org_idx" ON "meets" USING btree ("org_id","start_date");