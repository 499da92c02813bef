CREATE TABLE "physique_exemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"school_year_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"certificate_file_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" uuid,
	"requested_via" text DEFAULT 'console' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "test_plans" ADD COLUMN "retest_of_plan_id" uuid;--> statement-breakpoint
ALTER TABLE "physique_exemptions" ADD CONSTRAINT "physique_exemptions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_exemptions" ADD CONSTRAINT "physique_exemptions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_exemptions" ADD CONSTRAINT "physique_exemptions_school_year_id_school_years_id_fk" FOREIGN KEY ("school_year_id") REFERENCES "public"."school_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_exemptions" ADD CONSTRAINT "physique_exemptions_certificate_file_id_files_id_fk" FOREIGN KEY ("certificate_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_exemptions" ADD CONSTRAINT "physique_exemptions_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "physique_exemptions" ADD CONSTRAINT "physique_exemptions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "physique_exemptions_student_year_uq" ON "physique_exemptions" USING btree ("student_id","school_year_id") WHERE "physique_exemptions"."status" <> 'refused';--> statement-breakpoint
CREATE INDEX "physique_exemptions_org_year_idx" ON "physique_exemptions" USING btree ("org_id","school_year_id","status");--> statement-breakpoint
ALTER TABLE "test_plans" ADD CONSTRAINT "test_plans_retest_of_plan_id_test_plans_id_fk" FOREIGN KEY ("retest_of_plan_id") REFERENCES "public"."test_plans"("id") ON DELETE no action ON UPDATE no action;