CREATE TABLE "audit_chains" (
	"chain_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"sealed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"start_seq" bigint DEFAULT 0 NOT NULL,
	"start_hash" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_logs_chain_seq_uq" ON "audit_logs" USING btree (coalesce("org_id", '00000000-0000-0000-0000-000000000000'::uuid),"seq") WHERE "audit_logs"."seq" is not null;--> statement-breakpoint
CREATE INDEX "audit_logs_unsealed_idx" ON "audit_logs" USING btree ("at","id") WHERE "audit_logs"."seq" is null;