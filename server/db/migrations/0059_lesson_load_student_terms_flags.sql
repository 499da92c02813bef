DROP INDEX "lesson_load_student_terms_org_idx";--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD COLUMN "flagged" boolean;--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD COLUMN "age_on" date;--> statement-breakpoint
ALTER TABLE "lesson_load_student_terms" ADD COLUMN "shared" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "lesson_load_student_terms_age_idx" ON "lesson_load_student_terms" USING btree ("org_id","school_year","semester","age_on");--> statement-breakpoint
CREATE INDEX "lesson_load_student_terms_flag_idx" ON "lesson_load_student_terms" USING btree ("org_id","school_year","semester") WHERE "lesson_load_student_terms"."flagged" is not false or "lesson_load_student_terms"."shared";