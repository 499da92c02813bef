DROP INDEX "meet_photos_meet_idx";--> statement-breakpoint
ALTER TABLE "meet_photos" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "meet_certificates_org_idx" ON "meet_certificates" USING btree ("org_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_photos_file_uq" ON "meet_photos" USING btree ("meet_id","file_id");--> statement-breakpoint
CREATE INDEX "meet_stamps_org_idx" ON "meet_stamps" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "meet_photos_meet_idx" ON "meet_photos" USING btree ("meet_id","created_at");