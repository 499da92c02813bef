CREATE TABLE "contest_scores" (
	"contest_id" uuid NOT NULL,
	"item" text NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"max_value" double precision NOT NULL,
	"min_value" double precision NOT NULL,
	"total" double precision NOT NULL,
	"sessions" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "contest_scores_contest_id_item_student_id_pk" PRIMARY KEY("contest_id","item","student_id")
);
--> statement-breakpoint
CREATE TABLE "contests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"ended_at" timestamp with time zone,
	"grade_nos" smallint[] DEFAULT '{}' NOT NULL,
	"class_ids" uuid[] DEFAULT '{}' NOT NULL,
	"college_ids" uuid[] DEFAULT '{}' NOT NULL,
	"items" text[] NOT NULL,
	"rule" text NOT NULL,
	"prizes" text,
	"levels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pass_levels" smallint,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contest_scores" ADD CONSTRAINT "contest_scores_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_scores" ADD CONSTRAINT "contest_scores_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contests" ADD CONSTRAINT "contests_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contests" ADD CONSTRAINT "contests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contests_org_idx" ON "contests" USING btree ("org_id","start_date");--> statement-breakpoint
-- custom: contest_scores triggers. Statement-level triggers with transition tables keep contest_scores equal to the
-- roll-up of the valid contest entries in activity_records: inserts add to a student's row; updates and deletes
-- recompute the rows of the (contest, item, student) keys they touch from the entries (max/min cannot be undone).
CREATE FUNCTION contest_scores_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into contest_scores as s (contest_id, item, student_id, class_id, max_value, min_value, total, sessions, last_at)
    select ref_id, item, student_id, (array_agg(class_id order by measured_at desc))[1], max(value), min(value), sum(value), count(*), max(measured_at)
    from new_rows where kind = 'contest' and ref_id is not null and not invalid
    group by ref_id, item, student_id
  on conflict (contest_id, item, student_id) do update set
    class_id = case when excluded.last_at >= s.last_at then excluded.class_id else s.class_id end,
    max_value = greatest(s.max_value, excluded.max_value),
    min_value = least(s.min_value, excluded.min_value),
    total = s.total + excluded.total,
    sessions = s.sessions + excluded.sessions,
    last_at = greatest(s.last_at, excluded.last_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION contest_scores_recompute(keys jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- keys: [{"c": contest id, "i": item, "s": student id}, …]
  with k as (select distinct (e->>'c')::uuid as c, e->>'i' as i, (e->>'s')::uuid as s from jsonb_array_elements(keys) e)
  delete from contest_scores cs using k where cs.contest_id = k.c and cs.item = k.i and cs.student_id = k.s;
  insert into contest_scores (contest_id, item, student_id, class_id, max_value, min_value, total, sessions, last_at)
    select a.ref_id, a.item, a.student_id, (array_agg(a.class_id order by a.measured_at desc))[1], max(a.value), min(a.value), sum(a.value), count(*), max(a.measured_at)
    from activity_records a
    join (select distinct (e->>'c')::uuid as c, e->>'i' as i, (e->>'s')::uuid as s from jsonb_array_elements(keys) e) k
      on a.kind = 'contest' and a.ref_id = k.c and a.student_id = k.s and a.item = k.i
    where not a.invalid
    group by a.ref_id, a.item, a.student_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION contest_scores_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE keys jsonb;
BEGIN
  select jsonb_agg(jsonb_build_object('c', ref_id, 'i', item, 's', student_id)) into keys from (
    select ref_id, item, student_id from old_rows where kind = 'contest' and ref_id is not null
    union
    select ref_id, item, student_id from new_rows where kind = 'contest' and ref_id is not null
  ) t;
  if keys is not null then perform contest_scores_recompute(keys); end if;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION contest_scores_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE keys jsonb;
BEGIN
  select jsonb_agg(jsonb_build_object('c', ref_id, 'i', item, 's', student_id)) into keys from (
    select distinct ref_id, item, student_id from old_rows where kind = 'contest' and ref_id is not null
  ) t;
  if keys is not null then perform contest_scores_recompute(keys); end if;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_records_contest_insert AFTER INSERT ON activity_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contest_scores_insert();--> statement-breakpoint
CREATE TRIGGER activity_records_contest_update AFTER UPDATE ON activity_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contest_scores_update();--> statement-breakpoint
CREATE TRIGGER activity_records_contest_delete AFTER DELETE ON activity_records REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contest_scores_delete();--> statement-breakpoint
insert into contest_scores (contest_id, item, student_id, class_id, max_value, min_value, total, sessions, last_at)
  select ref_id, item, student_id, (array_agg(class_id order by measured_at desc))[1], max(value), min(value), sum(value), count(*), max(measured_at)
  from activity_records where kind = 'contest' and ref_id is not null and not invalid
  group by ref_id, item, student_id;
