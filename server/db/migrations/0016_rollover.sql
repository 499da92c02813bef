CREATE TABLE "school_rollovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"from_start_year" smallint NOT NULL,
	"to_start_year" smallint NOT NULL,
	"to_year_id" uuid,
	"changes" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "school_rollovers" ADD CONSTRAINT "school_rollovers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_rollovers" ADD CONSTRAINT "school_rollovers_to_year_id_school_years_id_fk" FOREIGN KEY ("to_year_id") REFERENCES "public"."school_years"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_rollovers" ADD CONSTRAINT "school_rollovers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "school_rollovers_org_idx" ON "school_rollovers" USING btree ("org_id","created_at");