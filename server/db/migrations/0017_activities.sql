CREATE TABLE "activity_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"ref_id" uuid,
	"item" text NOT NULL,
	"value" double precision NOT NULL,
	"duration_s" integer,
	"measured_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"device_id" uuid,
	"submitted_by" uuid,
	"client_id" text NOT NULL,
	"sender_key" uuid GENERATED ALWAYS AS (coalesce(device_id, submitted_by)) STORED NOT NULL,
	"video_file_id" uuid,
	"invalid" boolean DEFAULT false NOT NULL,
	"invalid_reason" text,
	"invalid_at" timestamp with time zone,
	"invalid_by" uuid
);
--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_video_file_id_files_id_fk" FOREIGN KEY ("video_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_invalid_by_users_id_fk" FOREIGN KEY ("invalid_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_records_sender_client_uq" ON "activity_records" USING btree ("sender_key","client_id");--> statement-breakpoint
CREATE INDEX "activity_records_org_time_idx" ON "activity_records" USING btree ("org_id","measured_at");--> statement-breakpoint
CREATE INDEX "activity_records_ref_idx" ON "activity_records" USING btree ("kind","ref_id","student_id");--> statement-breakpoint
CREATE INDEX "activity_records_student_item_idx" ON "activity_records" USING btree ("student_id","item","measured_at");