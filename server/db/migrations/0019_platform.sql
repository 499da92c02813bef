CREATE TABLE "sign_in_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"account" text NOT NULL,
	"user_id" uuid,
	"org_id" uuid,
	"ip" text,
	"user_agent" text,
	"result" text NOT NULL,
	"reason" text,
	"session_id" uuid
);
--> statement-breakpoint
ALTER TABLE "sign_in_logs" ADD CONSTRAINT "sign_in_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_logs" ADD CONSTRAINT "sign_in_logs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_logs" ADD CONSTRAINT "sign_in_logs_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_logs_org_at_idx" ON "sign_in_logs" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "sign_in_logs_at_idx" ON "sign_in_logs" USING btree ("at");