ALTER TABLE "roles" ADD COLUMN "mobile_functions" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- custom: existing built-in administrator roles open every mobile function (src/domain/roles/roles.ts MOBILE_FUNCTIONS)
UPDATE "roles" SET "mobile_functions" = ARRAY['signIn','physiqueResults','homework','contests','exercise','meets'] WHERE "builtin" AND "identity" = 'administrator';
