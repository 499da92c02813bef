ALTER TABLE "physique_result_counts" ADD COLUMN "exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "physique_results" ADD COLUMN "exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "physique_result_counts" DROP CONSTRAINT "physique_result_counts_pk";
--> statement-breakpoint
ALTER TABLE "physique_result_counts" ADD CONSTRAINT "physique_result_counts_pk" PRIMARY KEY("org_id","plan_id","class_id","grade_no","gender","invalid","exempt","complete","level");