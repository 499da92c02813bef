ALTER TABLE "audit_logs" ADD COLUMN "entity_name" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "password_failures" integer DEFAULT 0 NOT NULL;