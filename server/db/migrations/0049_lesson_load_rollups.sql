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
DROP INDEX "lesson_load_students_student_idx";--> statement-breakpoint
ALTER TABLE "lesson_loads" ADD COLUMN "school_year" smallint;--> statement-breakpoint
ALTER TABLE "lesson_loads" ADD COLUMN "semester" smallint;--> statement-breakpoint
ALTER TABLE "lesson_load_school_days" ADD CONSTRAINT "lesson_load_school_days_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD CONSTRAINT "lesson_load_student_terms_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_load_school_days_term_idx" ON "lesson_load_school_days" USING btree ("org_id","school_year","semester","day");--> statement-breakpoint
CREATE INDEX "lesson_load_student_terms_org_idx" ON "lesson_load_student_terms" USING btree ("org_id","school_year","semester","class_id");--> statement-breakpoint
CREATE INDEX "lesson_load_students_student_idx" ON "lesson_load_students" USING btree ("student_id","started_at");