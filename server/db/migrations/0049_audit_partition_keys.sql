DROP INDEX "audit_logs_chain_seq_uq";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'audit_logs'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "audit_logs" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
CREATE INDEX "audit_logs_chain_seq_idx" ON "audit_logs" USING btree (coalesce("org_id", '00000000-0000-0000-0000-000000000000'::uuid),"seq") WHERE "audit_logs"."seq" is not null;