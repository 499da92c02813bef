CREATE TABLE "audit_chains" (
	"chain_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"sealed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"start_seq" bigint DEFAULT 0 NOT NULL,
	"start_hash" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "heart_rate_dropped" (
	"lesson_id" uuid NOT NULL,
	"band" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "heart_rate_dropped_lesson_id_band_at_pk" PRIMARY KEY("lesson_id","band","at")
);
--> statement-breakpoint
CREATE TABLE "heart_rate_drops" (
	"lesson_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "heart_rate_drops_lesson_id_reason_pk" PRIMARY KEY("lesson_id","reason")
);
--> statement-breakpoint
CREATE TABLE "heart_rate_minutes" (
	"lesson_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"samples" smallint NOT NULL,
	"bpm_sum" integer NOT NULL,
	"bpm_min" smallint NOT NULL,
	"bpm_max" smallint NOT NULL,
	"zone_rest" smallint DEFAULT 0 NOT NULL,
	"zone_moderate" smallint DEFAULT 0 NOT NULL,
	"zone_target" smallint DEFAULT 0 NOT NULL,
	"zone_high" smallint DEFAULT 0 NOT NULL,
	"zone_danger" smallint DEFAULT 0 NOT NULL,
	"active" smallint DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last_bpm" smallint NOT NULL,
	CONSTRAINT "heart_rate_minutes_lesson_id_student_id_minute_pk" PRIMARY KEY("lesson_id","student_id","minute")
);
--> statement-breakpoint
CREATE TABLE "heart_rate_samples" (
	"lesson_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"bpm" smallint NOT NULL,
	"intensity" smallint,
	CONSTRAINT "heart_rate_samples_lesson_id_student_id_at_pk" PRIMARY KEY("lesson_id","student_id","at")
);
--> statement-breakpoint
CREATE TABLE "lesson_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lesson_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"peak_bpm" smallint,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "lesson_bands" (
	"lesson_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_bands_lesson_id_student_id_pk" PRIMARY KEY("lesson_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "lesson_loads" (
	"lesson_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"minutes" smallint NOT NULL,
	"student_count" smallint NOT NULL,
	"main_mean_bpm" real,
	"peak_bpm" smallint,
	"recovery_bpm" real,
	"group_density" real,
	"individual_density" real,
	"target_share" real,
	"meets_targets" boolean NOT NULL,
	"students" jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_settings" (
	"user_id" uuid NOT NULL,
	"list_key" text NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "list_settings_user_id_list_key_pk" PRIMARY KEY("user_id","list_key")
);
--> statement-breakpoint
CREATE TABLE "platform_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "kind" text DEFAULT 'terminal' NOT NULL;--> statement-breakpoint
ALTER TABLE "heart_rate_dropped" ADD CONSTRAINT "heart_rate_dropped_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_rate_drops" ADD CONSTRAINT "heart_rate_drops_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "heart_rate_minutes" ADD CONSTRAINT "heart_rate_minutes_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_alerts" ADD CONSTRAINT "lesson_alerts_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_alerts" ADD CONSTRAINT "lesson_alerts_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_alerts" ADD CONSTRAINT "lesson_alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_bands" ADD CONSTRAINT "lesson_bands_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_bands" ADD CONSTRAINT "lesson_bands_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_bands" ADD CONSTRAINT "lesson_bands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_loads" ADD CONSTRAINT "lesson_loads_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_loads" ADD CONSTRAINT "lesson_loads_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_loads" ADD CONSTRAINT "lesson_loads_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_settings" ADD CONSTRAINT "list_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_settings" ADD CONSTRAINT "platform_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "heart_rate_dropped_at_idx" ON "heart_rate_dropped" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "lesson_alerts_uq" ON "lesson_alerts" USING btree ("lesson_id","student_id","kind","started_at");--> statement-breakpoint
CREATE INDEX "lesson_alerts_open_idx" ON "lesson_alerts" USING btree ("lesson_id") WHERE "lesson_alerts"."acknowledged_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "lesson_bands_lesson_device_uq" ON "lesson_bands" USING btree ("lesson_id","device_id");--> statement-breakpoint
CREATE INDEX "lesson_bands_device_idx" ON "lesson_bands" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "lesson_loads_org_time_idx" ON "lesson_loads" USING btree ("org_id","started_at");--> statement-breakpoint
CREATE INDEX "lesson_loads_class_time_idx" ON "lesson_loads" USING btree ("class_id","started_at");--> statement-breakpoint
CREATE INDEX "list_settings_user_idx" ON "list_settings" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_logs_chain_seq_uq" ON "audit_logs" USING btree (coalesce("org_id", '00000000-0000-0000-0000-000000000000'::uuid),"seq") WHERE "audit_logs"."seq" is not null;--> statement-breakpoint
CREATE INDEX "audit_logs_unsealed_idx" ON "audit_logs" USING btree ("at","id") WHERE "audit_logs"."seq" is null;