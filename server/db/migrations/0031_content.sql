CREATE TABLE "activity_participation" (
	"org_id" uuid NOT NULL,
	"school_year" integer NOT NULL,
	"kind" text NOT NULL,
	"student_id" uuid NOT NULL,
	"records" integer NOT NULL,
	CONSTRAINT "activity_participation_org_id_school_year_kind_student_id_pk" PRIMARY KEY("org_id","school_year","kind","student_id")
);
--> statement-breakpoint
CREATE TABLE "activity_participation_counts" (
	"org_id" uuid NOT NULL,
	"school_year" integer NOT NULL,
	"kind" text NOT NULL,
	"students" integer NOT NULL,
	CONSTRAINT "activity_participation_counts_org_id_school_year_kind_pk" PRIMARY KEY("org_id","school_year","kind")
);
--> statement-breakpoint
-- custom: activity_participation triggers. Statement-level triggers with transition tables keep activity_participation
-- (valid homework and contest records per organisation, school year, kind and student) and activity_participation_counts
-- (its rows counted) equal to the records: each statement applies one set-wise delta (+1 per new valid row, −1 per old
-- one). A school year starts on August 1st in China: the local time minus 7 months falls in its start year. ENABLE
-- ALWAYS: the ingest writes in replica mode (docs/architecture.md, "Ingestion at batch speed").
CREATE FUNCTION activity_participation_apply(org_ids uuid[], years int[], kinds text[], student_ids uuid[], deltas int[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  with d as (select * from unnest(org_ids, years, kinds, student_ids, deltas) as d(org_id, school_year, kind, student_id, n)),
  up as (
    insert into activity_participation as p (org_id, school_year, kind, student_id, records)
      select org_id, school_year, kind, student_id, n from d
    on conflict (org_id, school_year, kind, student_id) do update set records = p.records + excluded.records
    returning p.org_id, p.school_year, p.kind, p.student_id, p.records
  ),
  moved as (
    select up.org_id, up.school_year, up.kind,
      sum(case when up.records > 0 and up.records - d.n <= 0 then 1 when up.records <= 0 and up.records - d.n > 0 then -1 else 0 end)::int as students
    from up join d on d.org_id = up.org_id and d.school_year = up.school_year and d.kind = up.kind and d.student_id = up.student_id
    group by up.org_id, up.school_year, up.kind
  )
  insert into activity_participation_counts as c (org_id, school_year, kind, students)
    select org_id, school_year, kind, students from moved where students <> 0
  on conflict (org_id, school_year, kind) do update set students = c.students + excluded.students;
  delete from activity_participation p
    using unnest(org_ids, years, kinds, student_ids) as k(org_id, school_year, kind, student_id)
    where p.org_id = k.org_id and p.school_year = k.school_year and p.kind = k.kind and p.student_id = k.student_id and p.records <= 0;
END $$;
--> statement-breakpoint
CREATE FUNCTION activity_participation_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  perform activity_participation_apply(array_agg(org_id), array_agg(school_year), array_agg(kind), array_agg(student_id), array_agg(n))
  from (
    select org_id, extract(year from (measured_at at time zone 'Asia/Shanghai') - interval '7 months')::int as school_year, kind, student_id, count(*)::int as n
    from new_rows where kind in ('homework', 'contest') and not invalid group by 1, 2, 3, 4
  ) t having count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION activity_participation_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  perform activity_participation_apply(array_agg(org_id), array_agg(school_year), array_agg(kind), array_agg(student_id), array_agg(n))
  from (
    select org_id, school_year, kind, student_id, sum(n)::int as n from (
      select org_id, extract(year from (measured_at at time zone 'Asia/Shanghai') - interval '7 months')::int as school_year, kind, student_id, 1 as n
      from new_rows where kind in ('homework', 'contest') and not invalid
      union all
      select org_id, extract(year from (measured_at at time zone 'Asia/Shanghai') - interval '7 months')::int, kind, student_id, -1
      from old_rows where kind in ('homework', 'contest') and not invalid
    ) x group by 1, 2, 3, 4 having sum(n) <> 0
  ) t having count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION activity_participation_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  perform activity_participation_apply(array_agg(org_id), array_agg(school_year), array_agg(kind), array_agg(student_id), array_agg(n))
  from (
    select org_id, extract(year from (measured_at at time zone 'Asia/Shanghai') - interval '7 months')::int as school_year, kind, student_id, -count(*)::int as n
    from old_rows where kind in ('homework', 'contest') and not invalid group by 1, 2, 3, 4
  ) t having count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_records_participation_insert AFTER INSERT ON activity_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_participation_insert();--> statement-breakpoint
CREATE TRIGGER activity_records_participation_update AFTER UPDATE ON activity_records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_participation_update();--> statement-breakpoint
CREATE TRIGGER activity_records_participation_delete AFTER DELETE ON activity_records REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_participation_delete();--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_participation_insert";--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_participation_update";--> statement-breakpoint
ALTER TABLE "activity_records" ENABLE ALWAYS TRIGGER "activity_records_participation_delete";--> statement-breakpoint
insert into activity_participation (org_id, school_year, kind, student_id, records)
  select org_id, extract(year from (measured_at at time zone 'Asia/Shanghai') - interval '7 months')::int, kind, student_id, count(*)::int
  from activity_records where kind in ('homework', 'contest') and not invalid group by 1, 2, 3, 4;--> statement-breakpoint
insert into activity_participation_counts (org_id, school_year, kind, students)
  select org_id, school_year, kind, count(*)::int from activity_participation group by 1, 2, 3;
