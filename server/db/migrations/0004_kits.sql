CREATE TABLE "audit_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"account_id" uuid,
	"org_id" uuid,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "head_teacher_id" uuid;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "pe_teacher_id" uuid;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "grades" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "school_years" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_logs_org_at_idx" ON "audit_logs" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "audit_logs_entity_idx" ON "audit_logs" USING btree ("entity","entity_id");--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_head_teacher_id_teachers_id_fk" FOREIGN KEY ("head_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_pe_teacher_id_teachers_id_fk" FOREIGN KEY ("pe_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;