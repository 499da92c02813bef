/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'access_logs'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "access_logs" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
ALTER TABLE "access_log_archives" ADD COLUMN "period_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_log_archives" ADD COLUMN "period_to" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "access_log_archives_created_idx" ON "access_log_archives" USING btree ("created_at");