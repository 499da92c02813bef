ALTER TABLE "homework_reviews" DROP CONSTRAINT "homework_reviews_record_id_activity_records_id_fk";
--> statement-breakpoint
DROP INDEX "activity_records_sender_client_uq";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'activity_records'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "activity_records" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
ALTER TABLE "activity_records" ADD COLUMN "school_year" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "homework_reviews" ADD COLUMN "school_year" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_records_sender_client_uq" ON "activity_records" USING btree ("sender_key","client_id","school_year");