ALTER TABLE "menus" ADD COLUMN "custom_names" jsonb;--> statement-breakpoint
ALTER TABLE "menus" ADD COLUMN "custom_sort" integer;--> statement-breakpoint
ALTER TABLE "menus" ADD COLUMN "custom_icon" text;--> statement-breakpoint
ALTER TABLE "menus" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "menus" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;