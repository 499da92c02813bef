CREATE TABLE "student_class_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "teacher_classes" ADD COLUMN "subject" text DEFAULT 'pe' NOT NULL;--> statement-breakpoint
ALTER TABLE "teacher_classes" DROP CONSTRAINT "teacher_classes_teacher_id_class_id_pk";--> statement-breakpoint
ALTER TABLE "teacher_classes" ADD CONSTRAINT "teacher_classes_teacher_id_class_id_subject_pk" PRIMARY KEY("teacher_id","class_id","subject");--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "data_scope" text DEFAULT 'org' NOT NULL;--> statement-breakpoint
ALTER TABLE "parents" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "status" text DEFAULT 'studying' NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "photo_file_id" uuid;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "certificate_type" text;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "certificate_no" text;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "photo_file_id" uuid;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "student_class_history" ADD CONSTRAINT "student_class_history_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_class_history" ADD CONSTRAINT "student_class_history_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_class_history" ADD CONSTRAINT "student_class_history_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "student_class_history_student_idx" ON "student_class_history" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "student_class_history_open_uq" ON "student_class_history" USING btree ("student_id") WHERE "student_class_history"."until" is null;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_photo_file_id_files_id_fk" FOREIGN KEY ("photo_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teachers" ADD CONSTRAINT "teachers_photo_file_id_files_id_fk" FOREIGN KEY ("photo_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- custom: every existing student starts their class history in the class they are in now.
INSERT INTO "student_class_history" ("org_id", "student_id", "class_id", "reason", "since")
SELECT "org_id", "id", "class_id", 'enrol', "created_at" FROM "students";
--> statement-breakpoint
-- custom: the history follows every insert and class change of a student, whoever writes it (screens, imports, seeds,
-- the year rollover); a writer names the reason with `set local tiyu.class_change_reason = 'rollover'`.
CREATE FUNCTION student_class_history_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO student_class_history (org_id, student_id, class_id, reason)
  SELECT n.org_id, n.id, n.class_id, coalesce(nullif(current_setting('tiyu.class_change_reason', true), ''), 'enrol')
  FROM new_rows n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION student_class_history_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE student_class_history h SET until = now()
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE h.student_id = n.id AND h.until IS NULL AND o.class_id IS DISTINCT FROM n.class_id;
  INSERT INTO student_class_history (org_id, student_id, class_id, reason)
  SELECT n.org_id, n.id, n.class_id, coalesce(nullif(current_setting('tiyu.class_change_reason', true), ''), 'transfer')
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE o.class_id IS DISTINCT FROM n.class_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER students_class_history_insert AFTER INSERT ON students REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION student_class_history_on_insert();
--> statement-breakpoint
CREATE TRIGGER students_class_history_update AFTER UPDATE ON students REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION student_class_history_on_update();
--> statement-breakpoint
ALTER TABLE students ENABLE ALWAYS TRIGGER students_class_history_insert;
--> statement-breakpoint
ALTER TABLE students ENABLE ALWAYS TRIGGER students_class_history_update;
