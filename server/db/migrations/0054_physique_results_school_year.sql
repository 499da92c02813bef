ALTER TABLE "physique_result_logs" DROP CONSTRAINT "physique_result_logs_result_id_physique_results_id_fk";
--> statement-breakpoint
DROP INDEX "physique_results_plan_student_uq";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'physique_results'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "physique_results" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
ALTER TABLE "physique_result_logs" ADD COLUMN "school_year" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "physique_results" ADD COLUMN "school_year" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "physique_results_plan_student_uq" ON "physique_results" USING btree ("plan_id","student_id","school_year");