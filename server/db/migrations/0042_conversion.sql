CREATE TABLE "conversion_tables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"stage" text NOT NULL,
	"year" smallint NOT NULL,
	"basis" text NOT NULL,
	"max_points" double precision NOT NULL,
	"rows" jsonb NOT NULL,
	"note" text,
	"sample" boolean DEFAULT false NOT NULL,
	"table_version" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_conversions" (
	"plan_id" uuid PRIMARY KEY NOT NULL,
	"table_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversion_tables" ADD CONSTRAINT "conversion_tables_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversion_tables" ADD CONSTRAINT "conversion_tables_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_conversions" ADD CONSTRAINT "plan_conversions_plan_id_test_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."test_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_conversions" ADD CONSTRAINT "plan_conversions_table_id_conversion_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."conversion_tables"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversion_tables_version_uq" ON "conversion_tables" USING btree ("org_id","stage","year","table_version");--> statement-breakpoint
CREATE INDEX "plan_conversions_table_idx" ON "plan_conversions" USING btree ("table_id");