import { and, asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import { beats, formatMark, parseMark } from '@/domain/meets/marks';
import {
  RECORD_COLUMNS,
  RECORD_IMPORT_MAX_ROWS,
  RECORD_SCOPE_NAMES,
  RECORD_STATE_HEADER,
  RESULT_KIND_NAMES,
  dateOfText,
  resultKindOfText,
  scopeOfText,
  type RecordColumnKey,
} from '@/domain/meets/record-import';
import { recordSaveSchema, type RecordScope, type RecordState } from '@/domain/meets/records';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { meetRecords } from '../../db/schema/meets';
import { audit } from '../../lib/audit';
import { nextVersion } from '../../lib/resource';
import { containsPattern } from '../../lib/query';
import { importRows, readImportSheet } from '../../lib/import-rows';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import type { Actor } from '../../plugins/tenant';

const RAW = { interpolation: { escapeValue: false } };
const LABEL: Record<RecordColumnKey, string> = {
  scope: 'meets:record.scope',
  eventName: 'meets:event.name',
  groupName: 'meets:group.name',
  resultKind: 'meets:event.resultKind',
  mark: 'meets:record.mark',
  holder: 'meets:record.holder',
  className: 'meets:record.className',
  setOn: 'meets:record.setOn',
};

export interface Workbook {
  workbook: Buffer;
  fileName: string;
}

const sheet = (t: Translate, rows: unknown[][]) => ({
  name: t('meets:record.sheetName', RAW),
  rows,
  columnWidths: [...RECORD_COLUMNS.map((c) => (c.key === 'eventName' || c.key === 'groupName' || c.key === 'className' ? 18 : 12)), 10],
  // Marks stay as typed (2:05.30 is not a clock time).
  textColumns: RECORD_COLUMNS.flatMap((c, i) => (c.key === 'mark' ? [i] : [])),
});

/** The import template: the headers and one example row. */
export function recordTemplate(t: Translate): Workbook {
  const example: Record<RecordColumnKey, unknown> = {
    scope: RECORD_SCOPE_NAMES.meet,
    eventName: '100米',
    groupName: '初中男子组',
    resultKind: RESULT_KIND_NAMES.time,
    mark: '12.31',
    holder: '张三',
    className: '八年级(1)班',
    setOn: '2025-04-18',
  };
  return { workbook: writeXlsx([sheet(t, [RECORD_COLUMNS.map((c) => c.header), RECORD_COLUMNS.map((c) => example[c.key])])]), fileName: `${t('meets:record.templateName', RAW)}.xlsx` };
}

type RecordExportFilter = { eventName?: string; scope?: RecordScope; state?: RecordState };

const recordExportWhere = (actor: Actor, q: RecordExportFilter) =>
  and(
    eq(meetRecords.orgId, actor.tenantOrgId),
    q.eventName ? ilike(meetRecords.eventName, containsPattern(q.eventName)) : undefined,
    q.scope ? eq(meetRecords.scope, q.scope) : undefined,
    q.state ? eq(meetRecords.state, q.state) : undefined,
  );

/** How many records the export writes, each naming its holder (the export approval's count). */
export async function recordExportRows(db: DbOrTx, actor: Actor, q: RecordExportFilter): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(meetRecords).where(recordExportWhere(actor, q));
  return row?.n ?? 0;
}

/** The records of the list's filters (current, pending and history) in the import's columns plus their state. */
export async function recordExport(db: DbOrTx, actor: Actor, q: RecordExportFilter, t: Translate): Promise<Workbook> {
  const rows = await db
    .select()
    .from(meetRecords)
    .where(recordExportWhere(actor, q))
    .orderBy(asc(meetRecords.scope), asc(meetRecords.groupName), asc(meetRecords.eventName), desc(meetRecords.setOn), asc(meetRecords.id));
  const body = rows.map((r) => [
    RECORD_SCOPE_NAMES[r.scope],
    r.eventName,
    r.groupName,
    RESULT_KIND_NAMES[r.resultKind],
    formatMark(r.resultKind, r.mark),
    r.holder,
    r.className ?? '',
    r.setOn,
    t(`meets:recordState.${r.state}`, RAW),
  ]);
  return { workbook: writeXlsx([sheet(t, [[...RECORD_COLUMNS.map((c) => c.header), RECORD_STATE_HEADER], ...body])]), fileName: `${t('meets:record.exportName', RAW)}.xlsx` };
}

/**
 * Records import, all or nothing on the import kit (docs/product-rules.md#meets): every row goes through the form's
 * schema; a row equal to a record already kept (same series, mark, holder and date, also an earlier row of the file)
 * is refused. After the rows are in, each series they touched has as current record its best mark (the earlier date
 * on a tie) among its current one and the imported ones; the others are its history. Pending records stay pending.
 */
export async function importRecords(
  db: Db,
  actor: Actor,
  file: { fileName: string; buffer: Buffer },
  t: Translate,
  options: { onProgress?: (done: number, total: number) => void | Promise<void> } = {},
): Promise<Workbook & { success: number; failure: number }> {
  const sheet = await readImportSheet(file, { columns: RECORD_COLUMNS, maxRows: RECORD_IMPORT_MAX_ROWS }, t);
  const seen = new Set<string>();
  const touched = new Map<string, { scope: RecordScope; eventName: string; groupName: string }>();
  const result = await importRows(db, sheet, {
    t,
    labels: LABEL,
    onProgress: options.onProgress,
    fileName: t('meets:record.importName', RAW),
    async each(_row, { text, fail }, tx) {
      const scope = scopeOfText(text('scope'));
      if (!scope) return fail('scope', 'meets:v.recordScope');
      const resultKind = resultKindOfText(text('resultKind'));
      if (!resultKind) return fail('resultKind', 'meets:v.resultKind');
      const mark = parseMark(resultKind, text('mark'));
      if (mark === null) return fail('mark', 'meets:v.mark');
      const parsed = recordSaveSchema.safeParse({
        scope,
        eventName: text('eventName'),
        groupName: text('groupName'),
        resultKind,
        mark,
        holder: text('holder'),
        className: text('className') || null,
        setOn: dateOfText(text('setOn')),
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return fail((String(issue.path[0]) as RecordColumnKey) in LABEL ? (String(issue.path[0]) as RecordColumnKey) : 'eventName', issue.message);
      }
      const r = parsed.data;
      const series = [r.scope, r.eventName, r.groupName].join('\u0000');
      const same = `${series}\u0000${r.mark}\u0000${r.holder}\u0000${r.setOn}`;
      const [kept] = await tx
        .select({ id: meetRecords.id, resultKind: meetRecords.resultKind })
        .from(meetRecords)
        .where(and(eq(meetRecords.orgId, actor.tenantOrgId), eq(meetRecords.scope, r.scope), eq(meetRecords.eventName, r.eventName), eq(meetRecords.groupName, r.groupName)))
        .limit(1);
      if (kept && kept.resultKind !== r.resultKind) return fail('resultKind', 'meets:v.recordKind', { kind: t(`meets:resultKind.${kept.resultKind}`, RAW) });
      const dup =
        seen.has(same) ||
        (await tx.$count(
          meetRecords,
          and(eq(meetRecords.orgId, actor.tenantOrgId), eq(meetRecords.scope, r.scope), eq(meetRecords.eventName, r.eventName), eq(meetRecords.groupName, r.groupName), eq(meetRecords.mark, r.mark), eq(meetRecords.holder, r.holder), eq(meetRecords.setOn, r.setOn)),
        )) > 0;
      if (dup) return fail('mark', 'meets:v.recordDuplicate');
      seen.add(same);
      const [created] = await tx
        .insert(meetRecords)
        .values({ orgId: actor.tenantOrgId, scope: r.scope, eventName: r.eventName, groupName: r.groupName, resultKind: r.resultKind, mark: r.mark, holder: r.holder, className: r.className ?? null, setOn: r.setOn, state: 'history' })
        .returning();
      await audit(tx, actor, { action: 'import', entity: 'meetRecord', entityId: created.id, before: null, after: created });
      touched.set(series, { scope: r.scope, eventName: r.eventName, groupName: r.groupName });
    },
    async after(tx) {
      for (const s of touched.values()) await settleSeries(tx, actor, s);
    },
  });
  return { workbook: result.workbook, fileName: result.fileName, success: result.success, failure: result.failure };
}

/** The best of a series' current and history records becomes current (the earlier date on a tie). */
async function settleSeries(tx: Tx, actor: Actor, s: { scope: RecordScope; eventName: string; groupName: string }) {
  const rows = await tx
    .select({ id: meetRecords.id, mark: meetRecords.mark, setOn: meetRecords.setOn, state: meetRecords.state, resultKind: meetRecords.resultKind })
    .from(meetRecords)
    .where(and(eq(meetRecords.orgId, actor.tenantOrgId), eq(meetRecords.scope, s.scope), eq(meetRecords.eventName, s.eventName), eq(meetRecords.groupName, s.groupName), inArray(meetRecords.state, ['current', 'history'])));
  let best = rows[0];
  for (const r of rows) if (beats(r.resultKind, r.mark, best.mark) || (r.mark === best.mark && r.setOn < best.setOn)) best = r;
  const current = rows.find((r) => r.state === 'current');
  if (current?.id === best.id) return;
  if (current) await tx.update(meetRecords).set({ state: 'history', version: nextVersion(meetRecords.version) }).where(eq(meetRecords.id, current.id));
  await tx.update(meetRecords).set({ state: 'current', version: nextVersion(meetRecords.version) }).where(eq(meetRecords.id, best.id));
}
