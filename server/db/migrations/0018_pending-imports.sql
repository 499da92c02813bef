CREATE TABLE "pending_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"family" text NOT NULL,
	"file_name" text NOT NULL,
	"hash" text NOT NULL,
	"size" bigint NOT NULL,
	"context" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pending_imports" ADD CONSTRAINT "pending_imports_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_imports" ADD CONSTRAINT "pending_imports_account_id_memberships_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_imports_account_idx" ON "pending_imports" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "pending_imports_expires_idx" ON "pending_imports" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "pending_imports_hash_idx" ON "pending_imports" USING btree ("hash");