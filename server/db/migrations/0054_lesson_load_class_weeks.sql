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
ALTER TABLE "lesson_load_student_terms" ADD COLUMN "above" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "lesson_load_class_weeks" ADD CONSTRAINT "lesson_load_class_weeks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_load_class_weeks" ADD CONSTRAINT "lesson_load_class_weeks_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_load_class_weeks_term_idx" ON "lesson_load_class_weeks" USING btree ("org_id","school_year","semester");