CREATE TABLE "access_log_archives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"from_id" bigint NOT NULL,
	"to_id" bigint NOT NULL,
	"rows" integer NOT NULL,
	"hash" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"org_id" uuid,
	"user_id" uuid,
	"account_id" uuid,
	"role_id" uuid,
	"device_id" uuid,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"page_key" text,
	"status" smallint NOT NULL,
	"duration_ms" integer NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
ALTER TABLE "access_log_archives" ADD CONSTRAINT "access_log_archives_run_id_retention_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."retention_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_log_archives_run_idx" ON "access_log_archives" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "access_logs_org_at_idx" ON "access_logs" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "access_logs_at_idx" ON "access_logs" USING btree ("at");