ALTER TABLE "orgs" ADD COLUMN "management_password_hash" text;--> statement-breakpoint
ALTER TABLE "orgs" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;