CREATE TABLE "test_plan_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"plan_name" text NOT NULL,
	"kind" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actor_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_jobs" ADD COLUMN "holder_id" uuid;--> statement-breakpoint
ALTER TABLE "test_plans" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "test_plans" ADD COLUMN "deleted_by" uuid;--> statement-breakpoint
ALTER TABLE "test_plan_events" ADD CONSTRAINT "test_plan_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_plan_events_plan_idx" ON "test_plan_events" USING btree ("plan_id","at");--> statement-breakpoint
ALTER TABLE "test_plans" ADD CONSTRAINT "test_plans_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_plans_deleted_idx" ON "test_plans" USING btree ("deleted_at") WHERE "test_plans"."deleted_at" is not null;