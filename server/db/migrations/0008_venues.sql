ALTER TABLE "colleges" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "majors" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;