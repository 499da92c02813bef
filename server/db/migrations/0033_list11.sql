-- custom: the score list's summary and its counts per (plan, grade, class) read only this index (index-only where the
-- visibility map allows): the same keys, plus the columns the list's filters and aggregates read
-- (server/modules/physique/physique-results.service.ts, summaryAndGroupsQuery; drizzle cannot declare INCLUDE).
DROP INDEX "physique_results_org_plan_class_idx";--> statement-breakpoint
CREATE INDEX "physique_results_org_plan_class_idx" ON "physique_results" USING btree ("org_id","plan_id","class_id") INCLUDE ("grade_no","gender","level","complete","invalid","total","student_id");
