CREATE TABLE "homework_classes" (
	"homework_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	CONSTRAINT "homework_classes_homework_id_class_id_pk" PRIMARY KEY("homework_id","class_id")
);
--> statement-breakpoint
CREATE TABLE "homework_items" (
	"homework_id" uuid NOT NULL,
	"item" text NOT NULL,
	"target" double precision NOT NULL,
	"intensity" text NOT NULL,
	"sort" smallint NOT NULL,
	CONSTRAINT "homework_items_homework_id_item_pk" PRIMARY KEY("homework_id","item")
);
--> statement-breakpoint
CREATE TABLE "homework_reviews" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"homework_id" uuid NOT NULL,
	"verdict" text,
	"reason" text,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"video_expired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "homeworks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"cycle" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"ended_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_plan_items" (
	"plan_id" uuid NOT NULL,
	"item" text NOT NULL,
	"target" double precision NOT NULL,
	"intensity" text NOT NULL,
	"sort" smallint NOT NULL,
	CONSTRAINT "training_plan_items_plan_id_item_pk" PRIMARY KEY("plan_id","item")
);
--> statement-breakpoint
CREATE TABLE "training_plan_students" (
	"plan_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	CONSTRAINT "training_plan_students_plan_id_student_id_pk" PRIMARY KEY("plan_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "training_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"cycle" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"ended_at" timestamp with time zone,
	"source_plan_id" uuid,
	"source_item" text,
	"source_level" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "homework_classes" ADD CONSTRAINT "homework_classes_homework_id_homeworks_id_fk" FOREIGN KEY ("homework_id") REFERENCES "public"."homeworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_classes" ADD CONSTRAINT "homework_classes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_items" ADD CONSTRAINT "homework_items_homework_id_homeworks_id_fk" FOREIGN KEY ("homework_id") REFERENCES "public"."homeworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_reviews" ADD CONSTRAINT "homework_reviews_record_id_activity_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."activity_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_reviews" ADD CONSTRAINT "homework_reviews_homework_id_homeworks_id_fk" FOREIGN KEY ("homework_id") REFERENCES "public"."homeworks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homework_reviews" ADD CONSTRAINT "homework_reviews_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homeworks" ADD CONSTRAINT "homeworks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "homeworks" ADD CONSTRAINT "homeworks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plan_items" ADD CONSTRAINT "training_plan_items_plan_id_training_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."training_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plan_students" ADD CONSTRAINT "training_plan_students_plan_id_training_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."training_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plan_students" ADD CONSTRAINT "training_plan_students_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plan_students" ADD CONSTRAINT "training_plan_students_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plans" ADD CONSTRAINT "training_plans_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plans" ADD CONSTRAINT "training_plans_source_plan_id_test_plans_id_fk" FOREIGN KEY ("source_plan_id") REFERENCES "public"."test_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_plans" ADD CONSTRAINT "training_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "homework_classes_class_idx" ON "homework_classes" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "homework_reviews_homework_idx" ON "homework_reviews" USING btree ("homework_id");--> statement-breakpoint
CREATE INDEX "homeworks_org_idx" ON "homeworks" USING btree ("org_id","start_date");--> statement-breakpoint
CREATE INDEX "training_plan_students_student_idx" ON "training_plan_students" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "training_plans_org_idx" ON "training_plans" USING btree ("org_id","start_date");