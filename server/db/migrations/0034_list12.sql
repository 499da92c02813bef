CREATE TABLE "physique_result_counts" (
	"org_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"grade_no" smallint NOT NULL,
	"gender" text NOT NULL,
	"invalid" boolean NOT NULL,
	"complete" boolean NOT NULL,
	"level" text NOT NULL,
	"n" integer NOT NULL,
	"total_x10" bigint NOT NULL,
	CONSTRAINT "physique_result_counts_pk" PRIMARY KEY("org_id","plan_id","class_id","grade_no","gender","invalid","complete","level")
);
--> statement-breakpoint
-- custom: score list counts. Statement-level triggers with transition tables keep physique_result_counts equal to the
-- results counted per (org, plan, class, grade, gender, invalid, complete, level) with Σ total × 10, as the dc_rollups
-- triggers do for the valid results (migration 0006_perfdb): one set-wise delta per statement (+1 per new row, −1 per
-- old row; a key whose delta is nothing is not written), rows reaching 0 deleted. ENABLE ALWAYS: the score import
-- writes in replica mode (docs/architecture.md, "Score import at COPY speed"). Then the existing results are counted once.
CREATE FUNCTION physique_result_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into physique_result_counts as c (org_id, plan_id, class_id, grade_no, gender, invalid, complete, level, n, total_x10)
    select d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level, sum(d.s), coalesce(sum(d.s * round(d.total * 10)::bigint), 0)
    from (select 1 as s, org_id, plan_id, class_id, grade_no, gender, invalid, complete, coalesce(level, '') as level, total from new_rows) d
    group by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level
    having sum(d.s) <> 0 or coalesce(sum(d.s * round(d.total * 10)::bigint), 0) <> 0
    order by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level
    on conflict on constraint physique_result_counts_pk do update set n = c.n + excluded.n, total_x10 = c.total_x10 + excluded.total_x10;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION physique_result_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into physique_result_counts as c (org_id, plan_id, class_id, grade_no, gender, invalid, complete, level, n, total_x10)
    select d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level, sum(d.s), coalesce(sum(d.s * round(d.total * 10)::bigint), 0)
    from (select 1 as s, org_id, plan_id, class_id, grade_no, gender, invalid, complete, coalesce(level, '') as level, total from new_rows union all select -1 as s, org_id, plan_id, class_id, grade_no, gender, invalid, complete, coalesce(level, '') as level, total from old_rows) d
    group by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level
    having sum(d.s) <> 0 or coalesce(sum(d.s * round(d.total * 10)::bigint), 0) <> 0
    order by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level
    on conflict on constraint physique_result_counts_pk do update set n = c.n + excluded.n, total_x10 = c.total_x10 + excluded.total_x10;
  delete from physique_result_counts c using (select distinct org_id, plan_id, class_id, grade_no, gender, invalid, complete, coalesce(level, '') as level from old_rows) k
    where c.org_id = k.org_id and c.plan_id = k.plan_id and c.class_id = k.class_id and c.grade_no = k.grade_no and c.gender = k.gender
      and c.invalid = k.invalid and c.complete = k.complete and c.level = k.level and c.n = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION physique_result_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into physique_result_counts as c (org_id, plan_id, class_id, grade_no, gender, invalid, complete, level, n, total_x10)
    select d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level, sum(d.s), coalesce(sum(d.s * round(d.total * 10)::bigint), 0)
    from (select -1 as s, org_id, plan_id, class_id, grade_no, gender, invalid, complete, coalesce(level, '') as level, total from old_rows) d
    group by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level
    having sum(d.s) <> 0 or coalesce(sum(d.s * round(d.total * 10)::bigint), 0) <> 0
    order by d.org_id, d.plan_id, d.class_id, d.grade_no, d.gender, d.invalid, d.complete, d.level
    on conflict on constraint physique_result_counts_pk do update set n = c.n + excluded.n, total_x10 = c.total_x10 + excluded.total_x10;
  delete from physique_result_counts c using (select distinct org_id, plan_id, class_id, grade_no, gender, invalid, complete, coalesce(level, '') as level from old_rows) k
    where c.org_id = k.org_id and c.plan_id = k.plan_id and c.class_id = k.class_id and c.grade_no = k.grade_no and c.gender = k.gender
      and c.invalid = k.invalid and c.complete = k.complete and c.level = k.level and c.n = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER physique_results_counts_insert AFTER INSERT ON physique_results REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_result_counts_insert();--> statement-breakpoint
CREATE TRIGGER physique_results_counts_update AFTER UPDATE ON physique_results REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_result_counts_update();--> statement-breakpoint
CREATE TRIGGER physique_results_counts_delete AFTER DELETE ON physique_results REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION physique_result_counts_delete();--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_counts_insert";--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_counts_update";--> statement-breakpoint
ALTER TABLE "physique_results" ENABLE ALWAYS TRIGGER "physique_results_counts_delete";--> statement-breakpoint
INSERT into physique_result_counts (org_id, plan_id, class_id, grade_no, gender, invalid, complete, level, n, total_x10)
  select org_id, plan_id, class_id, grade_no, gender, invalid, complete, coalesce(level, ''), count(*), coalesce(sum(round(total * 10)::bigint), 0)
  from physique_results group by org_id, plan_id, class_id, grade_no, gender, invalid, complete, coalesce(level, '');
