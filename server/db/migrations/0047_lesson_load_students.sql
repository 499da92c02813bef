CREATE TABLE "lesson_load_students" (
	"lesson_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"measured" integer NOT NULL,
	"mean_bpm" real,
	"main_mean_bpm" real,
	"peak_bpm" smallint,
	"density" real,
	"zone_rest" integer DEFAULT 0 NOT NULL,
	"zone_moderate" integer DEFAULT 0 NOT NULL,
	"zone_target" integer DEFAULT 0 NOT NULL,
	"zone_high" integer DEFAULT 0 NOT NULL,
	"zone_danger" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "lesson_load_students_lesson_id_student_id_pk" PRIMARY KEY("lesson_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "org_security_settings" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lesson_load_students" ADD CONSTRAINT "lesson_load_students_lesson_id_lesson_loads_lesson_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lesson_loads"("lesson_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_load_students" ADD CONSTRAINT "lesson_load_students_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_security_settings" ADD CONSTRAINT "org_security_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_security_settings" ADD CONSTRAINT "org_security_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_load_students_org_time_idx" ON "lesson_load_students" USING btree ("org_id","started_at","class_id","student_id","density","peak_bpm") WHERE "lesson_load_students"."measured" > 0;--> statement-breakpoint
CREATE INDEX "lesson_load_students_student_idx" ON "lesson_load_students" USING btree ("student_id");