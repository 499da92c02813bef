DROP INDEX "physique_results_org_grade_idx";--> statement-breakpoint
CREATE INDEX "physique_results_org_grade_idx" ON "physique_results" USING btree ("org_id","grade_no","plan_id") WHERE not "physique_results"."invalid";--> statement-breakpoint
-- custom: the grade view's distributions read only this index (index-only): the same keys, plus every item's raw value
-- and score, the total and the columns its filters and de-duplication use (DISTRIBUTION_COLUMNS in
-- server/modules/data-center/data-center.sql.ts; drizzle cannot declare INCLUDE).
DROP INDEX "physique_results_org_grade_idx";--> statement-breakpoint
CREATE INDEX "physique_results_org_grade_idx" ON "physique_results" USING btree ("org_id","grade_no","plan_id") INCLUDE ("student_id","class_id","gender","total","bmi","bmi_score","vital_capacity","vital_capacity_score","run_50m","run_50m_score","sit_and_reach","sit_and_reach_score","rope_1min","rope_1min_score","sit_up_1min","sit_up_1min_score","shuttle_50x8","shuttle_50x8_score","standing_long_jump","standing_long_jump_score","pull_up","pull_up_score","run_1000m","run_1000m_score","run_800m","run_800m_score") WHERE not "physique_results"."invalid";
--> statement-breakpoint
-- custom: an import checks and locks its references set-wise and then, where the role may, writes in replica mode to
-- skip the per-row foreign-key checks (server/modules/physique/physique-write.ts): the rollups must still be kept.
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_rollup_insert";--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_rollup_update";--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_rollup_delete";
