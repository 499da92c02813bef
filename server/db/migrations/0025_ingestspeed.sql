-- custom: a device or app batch checks and locks its references set-wise and then, where the role may, inserts in
-- replica mode to skip the per-row foreign-key checks (server/modules/ingest/ingest.service.ts): contest_scores must
-- still be kept.
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_contest_insert";--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_contest_update";--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_contest_delete";
