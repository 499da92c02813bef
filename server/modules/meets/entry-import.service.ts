import { and, eq, inArray } from 'drizzle-orm';
import { ENTRY_COLUMNS, ENTRY_EXPORT_HEADERS, ENTRY_IMPORT_MAX_ROWS, type EntryColumnKey } from '@/domain/meets/entry-import';
import type { EntryStatus } from '@/domain/meets/entries';
import { parseMark } from '@/domain/meets/marks';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { Db, DbOrTx } from '../../db/client';
import { meetEvents, meetGroups } from '../../db/schema/meets';
import { students } from '../../db/schema/school';
import { isAppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { columnTexts, importRows, readImportSheet } from '../../lib/import-rows';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import type { Actor } from '../../plugins/tenant';
import { addEntries, entryPage } from './entry.service';
import { tenantMeet } from './meet.service';

const RAW = { interpolation: { escapeValue: false } };
const LABEL: Record<EntryColumnKey, string> = {
  regNo: 'meets:entry.regNo',
  name: 'meets:heat.name',
  groupName: 'meets:group.name',
  eventName: 'meets:event.name',
  seedMark: 'meets:entry.seedMarkColumn',
};
/** Where a field error of the sign-up service belongs in the workbook. */
const COLUMN_OF: Record<string, EntryColumnKey> = { studentId: 'regNo', eventIds: 'eventName', seedMark: 'seedMark' };

export interface Workbook {
  workbook: Buffer;
  fileName: string;
}

const sheet = (t: Translate, rows: unknown[][]) => ({
  name: t('meets:entry.sheetName', RAW),
  rows,
  columnWidths: [16, 10, 14, 14, 10, 16, 8, 8],
  // 学籍号 are long digit strings.
  textColumns: [0, 4],
});

/** The template: the headers and an example row with the meet's first event. */
export async function entryTemplate(db: DbOrTx, actor: Actor, meetId: string, t: Translate): Promise<Workbook> {
  await tenantMeet(db, actor, meetId);
  const [first] = await db
    .select({ event: meetEvents.name, group: meetGroups.name })
    .from(meetEvents)
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(eq(meetEvents.meetId, meetId))
    .orderBy(meetGroups.sort, meetEvents.sort)
    .limit(1);
  const example = ['G440100201001010001', '张三', first?.group ?? '初中男子组', first?.event ?? '100米', ''];
  return { workbook: writeXlsx([sheet(t, [ENTRY_COLUMNS.map((c) => c.header), example])]), fileName: `${t('meets:entry.templateName', RAW)}.xlsx` };
}

/** The entries of the list's filters (within the actor's classes) in the import's columns plus class, bib and status. */
export async function entryExport(db: DbOrTx, actor: Actor, meetId: string, q: { name?: string; status?: EntryStatus; eventId?: string; classId?: string }, t: Translate): Promise<Workbook> {
  const page = await entryPage(db, actor, meetId, { ...q, current: 1, size: ENTRY_IMPORT_MAX_ROWS });
  const ids = [...new Set(page.records.flatMap((r) => (r.studentId ? [r.studentId] : [])))];
  const regNos = new Map(
    ids.length ? (await db.select({ id: students.id, regNo: students.regNo }).from(students).where(inArray(students.id, ids))).map((s) => [s.id, s.regNo] as const) : [],
  );
  const body = page.records.map((r) => [(r.studentId && regNos.get(r.studentId)) ?? '', r.kind === 'team' ? `${r.studentName}（${r.members.filter((m) => m.leg != null).map((m) => m.name).join('、')}）` : r.studentName, r.groupName, r.eventName, r.seedMark ?? '', r.className, r.bib ?? '', t(`meets:entryStatus.${r.status}`, RAW)]);
  return { workbook: writeXlsx([sheet(t, [[...ENTRY_COLUMNS.map((c) => c.header), ...ENTRY_EXPORT_HEADERS], ...body])]), fileName: `${t('meets:entry.exportName', RAW)}.xlsx` };
}

/**
 * Sign-up import, all or nothing on the import kit (docs/product-rules.md#meets): each row is one entry and goes
 * through the sign-up service as if entered on the screen (window, class scope, group fit, the same event once, the
 * athlete cap, the class cap, arranged events), the rows before it counting; each row runs in a savepoint so a
 * refused row leaves no trace and the rows after it are judged on the good ones. One refused row and nothing is
 * written; the failures workbook gives every refused row's reason.
 */
export async function importEntries(
  db: Db,
  actor: Actor,
  meetId: string,
  file: { fileName: string; buffer: Buffer },
  t: Translate,
  now: Date,
  options: { onProgress?: (done: number, total: number) => void | Promise<void> } = {},
): Promise<Workbook & { success: number; failure: number }> {
  await tenantMeet(db, actor, meetId);
  const sheet = await readImportSheet(file, { columns: ENTRY_COLUMNS, maxRows: ENTRY_IMPORT_MAX_ROWS }, t);
  const events = await db
    .select({ id: meetEvents.id, name: meetEvents.name, group: meetGroups.name, resultKind: meetEvents.resultKind })
    .from(meetEvents)
    .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
    .where(eq(meetEvents.meetId, meetId));
  const regNos = [...new Set(columnTexts(sheet, 'regNo'))];
  const people = regNos.length
    ? await db.select({ id: students.id, regNo: students.regNo, name: students.name }).from(students).where(and(eq(students.orgId, actor.tenantOrgId), inArray(students.regNo, regNos)))
    : [];
  const byRegNo = new Map(people.map((p) => [p.regNo, p]));

  const result = await importRows(db, sheet, {
    t,
    labels: LABEL,
    onProgress: options.onProgress,
    fileName: t('meets:entry.importName', RAW),
    async each(_row, { text, fail }, tx) {
      const student = byRegNo.get(text('regNo'));
      if (!student) return fail('regNo', 'meets:entry.studentNotFound', { value: text('regNo') });
      if (text('name') && text('name') !== student.name) return fail('name', 'meets:entry.nameMismatch', { name: student.name });
      const event = events.find((e) => e.group === text('groupName') && e.name === text('eventName'));
      if (!event) {
        return fail(events.some((e) => e.group === text('groupName')) ? 'eventName' : 'groupName', 'meets:entry.eventNotFound', { group: text('groupName'), event: text('eventName') });
      }
      const seedText = text('seedMark');
      const seedMark = seedText ? parseMark(event.resultKind, seedText) : null;
      if (seedText && seedMark === null) return fail('seedMark', 'meets:v.mark');
      try {
        const out = await tx.transaction((sp) => addEntries(sp, actor, meetId, { studentId: student.id, eventIds: [event.id], seedMark }, now));
        await audit(tx, actor, { action: 'signUpImport', entity: 'meet', entityId: meetId, after: { studentId: student.id, eventId: event.id, ...out } });
      } catch (error) {
        if (!isAppError(error)) throw error;
        // The window closed is the file's, not a row's.
        if (error.i18nKey === 'meets:v.signupClosed') throw error;
        if (error.status === 404) return fail('regNo', 'meets:entry.studentNotFound', { value: text('regNo') });
        return fail(COLUMN_OF[error.field ?? ''] ?? 'eventName', error.i18nKey, error.params);
      }
    },
  });
  return { workbook: result.workbook, fileName: result.fileName, success: result.success, failure: result.failure };
}
