ALTER TABLE "screen_links" ADD COLUMN "meet_id" uuid;--> statement-breakpoint
ALTER TABLE "screen_links" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "screen_links" ADD CONSTRAINT "screen_links_meet_id_meets_id_fk" FOREIGN KEY ("meet_id") REFERENCES "public"."meets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "screen_links_meet_idx" ON "screen_links" USING btree ("meet_id");