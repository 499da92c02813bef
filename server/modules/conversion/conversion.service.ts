import { and, asc, desc, eq, ilike, inArray, max, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import {
  examPointsOf,
  gradeInStage,
  type ConversionBasis,
  type ConversionListQuery,
  type ConversionOption,
  type ConversionRow,
  type ConversionSave,
  type ConversionStage,
  type ConvertibleResult,
  type ExamPoints,
} from '@/domain/conversion/conversion';
import type { ExportColumn, Translate } from '@/domain/physique-results/export-layout';
import type { DbOrTx, Tx } from '../../db/client';
import { conversionTables, planConversions } from '../../db/schema/conversion';
import { orgs } from '../../db/schema/orgs';
import { AppError, fieldError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';

/** Plans applying a version (a correlated count: the list shows it and it freezes the version). */
const plansOf = sql<number>`(select count(*)::int from plan_conversions pc where pc.table_id = ${conversionTables.id})`;
const columns = {
  id: conversionTables.id,
  name: conversionTables.name,
  stage: conversionTables.stage,
  year: conversionTables.year,
  basis: conversionTables.basis,
  maxPoints: conversionTables.maxPoints,
  note: conversionTables.note,
  rows: conversionTables.rows,
  tableVersion: conversionTables.tableVersion,
  sample: conversionTables.sample,
  plans: plansOf,
  version: conversionTables.version,
  updatedAt: conversionTables.updatedAt,
};
type Selected = { [K in keyof typeof columns]: unknown } & { updatedAt: Date; basis: string };
const toRow = (r: Selected): ConversionRow => ({ ...(r as unknown as ConversionRow), basis: r.basis as ConversionBasis, updatedAt: r.updatedAt.toISOString() });

/** The district's table versions: newest year first, then stage, newest version first. */
export async function conversionPage(db: DbOrTx, actor: Actor, q: ConversionListQuery): Promise<Page<ConversionRow>> {
  const page = await paginate(
    db,
    db
      .select(columns)
      .from(conversionTables)
      .where(
        and(
          eq(conversionTables.orgId, actor.tenantOrgId),
          q.name ? ilike(conversionTables.name, containsPattern(q.name)) : undefined,
          q.stage ? eq(conversionTables.stage, q.stage) : undefined,
        ),
      )
      .orderBy(desc(conversionTables.year), asc(conversionTables.stage), desc(conversionTables.tableVersion), asc(conversionTables.id))
      .$dynamic(),
    q,
  );
  return { ...page, records: page.records.map(toRow) };
}

/** One version of the tenant's; another organisation's is 404. */
export async function conversionById(db: DbOrTx, actor: Actor, id: string): Promise<ConversionRow> {
  if (!isUuid(id)) throw notFound();
  const [row] = await db.select(columns).from(conversionTables).where(and(eq(conversionTables.orgId, actor.tenantOrgId), eq(conversionTables.id, id)));
  if (!row) throw notFound();
  return toRow(row);
}

/** A new version of the stage and year: the next version number (a race on it is the unique index's 409). */
export async function createConversion(tx: Tx, actor: Actor, body: ConversionSave): Promise<ConversionRow> {
  const [{ last }] = await tx
    .select({ last: max(conversionTables.tableVersion) })
    .from(conversionTables)
    .where(and(eq(conversionTables.orgId, actor.tenantOrgId), eq(conversionTables.stage, body.stage), eq(conversionTables.year, body.year)));
  const [row] = await tx
    .insert(conversionTables)
    .values({
      orgId: actor.tenantOrgId,
      name: body.name,
      stage: body.stage,
      year: body.year,
      basis: body.basis,
      maxPoints: body.maxPoints,
      rows: body.rows.map((r) => ({ min: r.min, points: r.points })),
      note: body.note ?? null,
      tableVersion: (last ?? 0) + 1,
      createdBy: actor.userId,
    })
    .returning({ id: conversionTables.id });
  return conversionById(tx, actor, row.id);
}

const inUseBy = (tx: DbOrTx, id: string) => tx.$count(planConversions, eq(planConversions.tableId, id));

/**
 * Edits a version in place while no plan applies it (a plan's converted points never change under it: 409, upload a
 * new version instead). The version keeps its stage and year (its place in the versions).
 */
export async function updateConversion(tx: Tx, actor: Actor, id: string, body: ConversionSave): Promise<Change<ConversionRow>> {
  await lockVersion(tx, conversionTables, id, eq(conversionTables.orgId, actor.tenantOrgId), body.version ?? -1);
  const before = await conversionById(tx, actor, id);
  if ((await inUseBy(tx, id)) > 0) throw new AppError(409, 'conversion:error.inUseNoEdit');
  await tx
    .update(conversionTables)
    .set({
      name: body.name,
      basis: body.basis,
      maxPoints: body.maxPoints,
      rows: body.rows.map((r) => ({ min: r.min, points: r.points })),
      note: body.note ?? null,
      version: nextVersion(conversionTables.version),
      updatedAt: new Date(),
    })
    .where(eq(conversionTables.id, id));
  return { before, after: await conversionById(tx, actor, id) };
}

/** Deletes a version no plan applies (409 naming the plans otherwise). */
export async function deleteConversion(tx: Tx, actor: Actor, id: string): Promise<ConversionRow> {
  const before = await conversionById(tx, actor, id);
  await assertUnused([{ what: 'conversion:entity.plans', count: () => inUseBy(tx, id) }]);
  await tx.delete(conversionTables).where(eq(conversionTables.id, id));
  return before;
}

// ---------------------------------------------------------------------------------------------
// A plan applies a version (server/modules/test-plans calls these)
// ---------------------------------------------------------------------------------------------

/** The management organisations above a school (its parent, the parent's parent, …): whose tables it may apply. */
const ancestorsOf = (schoolId: string) =>
  sql`(with recursive up(id, parent_id) as (
      select id, parent_id from orgs where id = ${schoolId}
      union all
      select o.id, o.parent_id from orgs o join up on o.id = up.parent_id
    ) select id from up where id <> ${schoolId})`;

/** The versions a school's plan may apply: those of the management organisations above it, newest first. */
export async function conversionOptionsFor(db: DbOrTx, schoolId: string): Promise<ConversionOption[]> {
  const rows = await db
    .select({ id: conversionTables.id, name: conversionTables.name, stage: conversionTables.stage, year: conversionTables.year, tableVersion: conversionTables.tableVersion, sample: conversionTables.sample, orgName: orgs.name })
    .from(conversionTables)
    .innerJoin(orgs, eq(orgs.id, conversionTables.orgId))
    .where(sql`${conversionTables.orgId} in ${ancestorsOf(schoolId)}`)
    .orderBy(desc(conversionTables.year), asc(conversionTables.stage), desc(conversionTables.tableVersion));
  return rows;
}

/**
 * Sets (or clears) the version a plan applies, checked (400 on the form's field `conversionTableId`): a version
 * published above the plan's school, of a stage some of the plan's grades are in (its other grades are not converted).
 */
export async function setPlanConversion(tx: DbOrTx, schoolId: string, planId: string, tableId: string | null | undefined, gradeNos: readonly number[]): Promise<void> {
  if (!tableId) {
    await tx.delete(planConversions).where(eq(planConversions.planId, planId));
    return;
  }
  const [table] = await tx
    .select({ id: conversionTables.id, stage: conversionTables.stage })
    .from(conversionTables)
    .where(and(eq(conversionTables.id, tableId), sql`${conversionTables.orgId} in ${ancestorsOf(schoolId)}`));
  if (!table) throw fieldError('conversionTableId', 'conversion:validation.tableNotAvailable');
  if (!gradeNos.some((g) => gradeInStage(g, table.stage))) throw fieldError('conversionTableId', 'conversion:validation.stageMismatch');
  await tx.insert(planConversions).values({ planId, tableId }).onConflictDoUpdate({ target: planConversions.planId, set: { tableId } });
}

/** The version a plan applies (the plan's detail and form), or null. */
export async function planConversionOf(db: DbOrTx, planId: string): Promise<ConversionOption | null> {
  const [row] = await db
    .select({ id: conversionTables.id, name: conversionTables.name, stage: conversionTables.stage, year: conversionTables.year, tableVersion: conversionTables.tableVersion, sample: conversionTables.sample, orgName: orgs.name })
    .from(planConversions)
    .innerJoin(conversionTables, eq(conversionTables.id, planConversions.tableId))
    .innerJoin(orgs, eq(orgs.id, conversionTables.orgId))
    .where(eq(planConversions.planId, planId));
  return row ?? null;
}

interface AppliedTable {
  name: string;
  stage: ConversionStage;
  basis: ConversionBasis;
  maxPoints: number;
  rows: { min: number; points: number }[];
  tableVersion: number;
  sample: boolean;
}

/** The tables the plans apply, by plan id. */
async function tablesOfPlans(db: DbOrTx, planIds: readonly string[]): Promise<Map<string, AppliedTable>> {
  if (planIds.length === 0) return new Map();
  const rows = await db
    .select({
      planId: planConversions.planId,
      name: conversionTables.name,
      stage: conversionTables.stage,
      basis: conversionTables.basis,
      maxPoints: conversionTables.maxPoints,
      rows: conversionTables.rows,
      tableVersion: conversionTables.tableVersion,
      sample: conversionTables.sample,
    })
    .from(planConversions)
    .innerJoin(conversionTables, eq(conversionTables.id, planConversions.tableId))
    .where(inArray(planConversions.planId, [...new Set(planIds)]));
  return new Map(rows.map(({ planId, ...t }) => [planId, { ...t, basis: t.basis as ConversionBasis }]));
}

/** A report's converted points (docs/product-rules.md#physique-year: 中考体育 conversion): null without a table or a value. */
export async function planExamPoints(db: DbOrTx, result: ConvertibleResult & { planId: string; invalid: boolean }): Promise<ExamPoints | null> {
  // An invalid result counts nowhere (docs/product-rules.md#score-validity), so it converts to nothing either.
  if (result.invalid) return null;
  const table = (await tablesOfPlans(db, [result.planId])).get(result.planId);
  if (!table) return null;
  const points = examPointsOf(table, result);
  return points === null ? null : { points, maxPoints: table.maxPoints, tableName: table.name, version: table.tableVersion, basis: table.basis, sample: table.sample };
}

/**
 * The score export's 中考体育 points column (docs/product-rules.md#physique-year): only when a plan of the export
 * applies a table; each row converted by its own plan's table (blank otherwise, and for an invalid result).
 */
export async function examPointsColumns(db: DbOrTx, planIds: readonly string[], t: Translate): Promise<ExportColumn[]> {
  const tables = await tablesOfPlans(db, planIds);
  if (tables.size === 0) return [];
  return [
    {
      header: t('conversion:export.points'),
      width: 10,
      value: (r) => {
        const table = tables.get(r.planId);
        return table && !r.invalid ? examPointsOf(table, r) : null;
      },
    },
  ];
}
