import { ERR } from '@/domain/errors';
import {
  columnLabel,
  formatRowErrors,
  isBlankRow,
  mapHeaders,
  nationalCodeFromGrade,
  parseTemplateRow,
  type HeaderMapping,
  type NationalColumnKey,
} from '@/domain/physique/national-template';
import { localDate } from '@/domain/dates';
import type { Translate } from '@/domain/physique-results/export-layout';
import { restrictToItems } from '@/domain/physique-results/wide-row';
import { retestRefusalKey } from '@/domain/retest/retest';
import { onServer, type Db } from '../../db/client';
import type { BulkSession } from './bulk-session';
import { AppError } from '../../lib/app-error';
import { classScopeTest, type ClassScope } from '../../lib/data-scope';
import { EventLoopPacer } from '../../lib/spreadsheet/pacer';
import { columnName } from '../../lib/spreadsheet/sheet-scanner';
import { openXlsx, type CellValue, type XlsxReadOptions } from '../../lib/spreadsheet/xlsx-reader';
import { failuresWorkbook, type ImportFailure, importFileName as fileNameWithCounts } from '../../lib/spreadsheet/import-report';
import { finishPlanJob, getPlanInScope, startPlanJob, assertPlanOpen, type PlanRecord } from '../test-plans/test-plans.service';
import { itemsFor, loadPlanContext, planScopeClasses, scopeStudentsNamed, stagedImport, type PlanContext, type ResultInput, type ScopeStudent } from './physique-write';

/** Rows scanned for the header row (files often start with a title row). */
const HEADER_SCAN_ROWS = 10;

/**
 * What an import reads of a workbook: a school's national template has a few thousand rows of about 21 columns; these
 * limits leave room for a whole district and refuse crafted files (decompression bombs, cells far out) with a message.
 */
export const IMPORT_LIMITS = {
  /** Rows as stored, header and title rows included. */
  maxRows: 200_000,
  /** Columns up to IV, as in Excel 2003. */
  maxColumns: 256,
  maxXmlBytes: 256 * 1024 * 1024,
  maxSharedStringsBytes: 64 * 1024 * 1024,
} as const satisfies XlsxReadOptions;

/** Failed rows listed in the failures workbook; the rest are counted, so a file of a million bad rows answers with a small workbook. */
export const FAILED_ROWS_LISTED = 2000;

export interface ImportRequest {
  tenantOrgId: string;
  userId: string;
  planId: string;
  fileName: string;
  buffer: Buffer;
  now: Date;
  /** Translates failure reasons and file names into the request's language. */
  t: Translate;
  /** The importer's data scope (docs/product-rules.md#data-scopes): rows of students outside it are refused. */
  classScope: ClassScope;
  /** A job's progress (docs/product-rules.md#jobs): data rows checked and staged of the file's rows, then the write. */
  onProgress?: (done: number, total: number, stage: 'importing' | 'writing') => Promise<void>;
  /** Runs inside the write transaction with the outcome (the import job marks itself done there); not when nothing is written. */
  inWrite?: (tx: BulkSession, outcome: ImportOutcome) => Promise<void>;
}

export interface ImportOutcome {
  success: number;
  failure: number;
  /** The failures workbook: the file's header plus a reason column, then the first FAILED_ROWS_LISTED failed rows as uploaded. */
  workbook: Buffer;
  /** `<prefix>_<success>_<failure>.xlsx`; the prefix holds no '_' (docs/product-rules.md#import-files: counts are parts 2 and 3). */
  fileName: string;
}

type Failure = ImportFailure;

/** Students indexed the ways an import row finds them: registration number (upper case), then name + class. */
class StudentIndex {
  private readonly byRegNo = new Map<string, ScopeStudent>();
  /** Built on the first row not found by number: most slices never need it. */
  private byNameClass: Map<string, ScopeStudent[]> | null = null;

  constructor(private readonly list: readonly ScopeStudent[]) {
    for (const s of list) {
      // Registration numbers match case-insensitively; one stored exactly as the file writes it wins.
      const key = s.regNo.toUpperCase();
      if (!this.byRegNo.has(key) || s.regNo === key) this.byRegNo.set(key, s);
    }
  }

  private nameIndex(): Map<string, ScopeStudent[]> {
    if (this.byNameClass) return this.byNameClass;
    const index = new Map<string, ScopeStudent[]>();
    const add = (key: string, s: ScopeStudent) => {
      const list = index.get(key);
      if (list) list.push(s);
      else index.set(key, [s]);
    };
    for (const s of this.list) {
      add(`${s.name}\u0000${s.className}`, s);
      if (s.classNo) add(`${s.name}\u0000#${s.classNo}`, s);
    }
    return (this.byNameClass = index);
  }

  find(regNo: string, name: string, className: string | null, classNo: string): ScopeStudent | ScopeStudent[] | null {
    const byReg = this.byRegNo.get(regNo);
    if (byReg) return byReg;
    const byNameClass = this.nameIndex();
    const list = (className ? byNameClass.get(`${name}\u0000${className}`) : undefined) ?? byNameClass.get(`${name}\u0000#${classNo}`);
    if (!list) return null;
    return list.length === 1 ? list[0] : list;
  }
}

const UUID_FORM = /^[0-9a-f]{8}(-?[0-9a-f]{4}){3}-?[0-9a-f]{12}$/i;

/**
 * The first row of each student in the file (the duplicate check spans the whole file), keyed by the id's 128 bits in
 * typed arrays: 200,000 ids in a Map of strings sat on the JS heap, and V8 lets garbage grow with the live heap before
 * a major GC (docs/decisions/028-score-import-at-copy-speed.md).
 */
export class FirstRows {
  private keys = new Uint32Array(4 * 1024);
  /** Row number per slot; 0 = free (rows count from 1). */
  private rows = new Int32Array(1024);
  private size = 0;
  private readonly key = new Uint32Array(4);

  /** The slot of `id` (a UUID), or the free slot where it goes. */
  private slot(id: string): number {
    const { keys, rows } = this;
    // The 32 hex digits of 8-4-4-4-12 (claim() checked the form; get() of another string only misses), four at a time, without building strings.
    const k = this.key;
    for (let w = 0, p = 0; w < 4; w++) {
      let v = 0;
      for (let d = 0; d < 8; d++, p++) {
        if (id.charCodeAt(p) === 45) p++;
        const c = id.charCodeAt(p);
        v = v * 16 + (c <= 57 ? c - 48 : (c | 32) - 87);
      }
      k[w] = v;
    }
    const mask = rows.length - 1;
    let i = (Math.imul(k[0] ^ k[3], 0x9e3779b1) >>> 0) & mask;
    while (rows[i] !== 0 && (keys[4 * i] !== k[0] || keys[4 * i + 1] !== k[1] || keys[4 * i + 2] !== k[2] || keys[4 * i + 3] !== k[3])) i = (i + 1) & mask;
    return i;
  }

  get(id: string): number | undefined {
    const row = this.rows[this.slot(id)];
    return row === 0 ? undefined : row;
  }

  /** The first row of `id` if it was seen, else records `row` as its first and answers undefined: one probe for both. */
  claim(id: string, row: number): number | undefined {
    if (!UUID_FORM.test(id)) throw new Error(`not a UUID: ${id}`);
    if (2 * (this.size + 1) > this.rows.length) this.grow();
    const i = this.slot(id);
    const first = this.rows[i];
    if (first !== 0) return first;
    this.size++;
    this.rows[i] = row;
    this.keys.set(this.key, 4 * i);
    return undefined;
  }

  private grow(): void {
    const keys = new Uint32Array(this.keys.length * 2);
    const rows = new Int32Array(this.rows.length * 2);
    const mask = rows.length - 1;
    for (let j = 0; j < this.rows.length; j++) {
      if (this.rows[j] === 0) continue;
      let i = (Math.imul(this.keys[4 * j] ^ this.keys[4 * j + 3], 0x9e3779b1) >>> 0) & mask;
      while (rows[i] !== 0) i = (i + 1) & mask;
      rows[i] = this.rows[j];
      for (let w = 0; w < 4; w++) keys[4 * i + w] = this.keys[4 * j + w];
    }
    this.keys = keys;
    this.rows = rows;
  }
}

/** An object without own keys, without listing them. */
function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

const RAW_OPTS = { interpolation: { escapeValue: false } };

/** "第N行，〈字段〉：reason" for a rule the template parser does not know (matching, duplicates). */
function rowReason(t: Translate, row: number, field: NationalColumnKey, key: string, params: Record<string, unknown> = {}): string {
  const reason = t(key, { ...params, ...RAW_OPTS });
  return t('physique:import.rowError', { row, field: columnLabel((k, o) => t(k, o), field), reason, ...RAW_OPTS });
}

/** A header that appears twice is refused, naming it and its columns: which of the two holds the data is anyone's guess. */
function assertNoDuplicates(mapping: HeaderMapping, t: Translate): void {
  if (mapping.duplicates.length === 0) return;
  const columns = mapping.duplicates
    .map((d) =>
      t('physique:import.duplicateColumn', {
        field: columnLabel((key, o) => t(key, o), d.key),
        columns: d.columns.map(columnName).join(t('physique:import.columnSeparator', RAW_OPTS)),
        ...RAW_OPTS,
      }),
    )
    .join(t('physique:import.errorSeparator', RAW_OPTS));
  throw new AppError(400, 'physique:import.duplicateColumns', { columns });
}

/** The header row among the first rows, or the 400 that explains what is wrong with them. */
function headerOf(candidates: readonly { row: number; cells: readonly CellValue[] }[], t: Translate): { index: number; mapping: HeaderMapping } {
  let best: { mapping: HeaderMapping; found: number } | null = null;
  for (const c of candidates) {
    if (isBlankRow(c.cells)) continue;
    const mapping = mapHeaders(c.cells);
    if (mapping.missing.length === 0) {
      assertNoDuplicates(mapping, t);
      return { index: c.row, mapping };
    }
    if (!best || mapping.columns.size > best.found) best = { mapping, found: mapping.columns.size };
  }
  if (best && best.found >= 2) {
    const columns = best.mapping.missing.map((k) => columnLabel((key, o) => t(key, o), k)).join(t('physique:import.errorSeparator', RAW_OPTS));
    throw new AppError(400, 'physique:import.missingColumns', { columns });
  }
  throw new AppError(400, 'physique:import.headerNotFound');
}

/**
 * Score import of the national template (docs/product-rules.md#physique-results: score import), all or nothing: takes the plan's job lock (docs/product-rules.md#plan-states), reads and
 * validates the rows, matches students (registration number, then name + class) and stages the valid ones slice by
 * slice outside any transaction, then writes them in one short transaction. Returns the counts and the failures workbook.
 */
export async function importScores(db: Db, req: ImportRequest): Promise<ImportOutcome> {
  if (!/\.xlsx$/i.test(req.fileName.trim())) throw new AppError(400, ERR.onlyExcel);
  const plan = await getPlanInScope(db, req.tenantOrgId, req.planId);
  assertPlanOpen(plan, req.now);
  const job = await startPlanJob(db, { planId: plan.id, orgId: req.tenantOrgId, kind: 'import', userId: req.userId, fileName: req.fileName, now: req.now });
  try {
    const outcome = await runImport(db, plan, req);
    await finishPlanJob(db, job.id, { status: 'done', successCount: outcome.success, failureCount: outcome.failure, now: req.now });
    return outcome;
  } catch (error) {
    await finishPlanJob(db, job.id, { status: 'failed', error: error instanceof Error ? error.message.slice(0, 500) : 'failed', now: req.now }).catch(() => false);
    throw error;
  }
}

/** The day results are recorded on: today, kept inside the plan's dates. */
export function testDay(plan: PlanRecord, now: Date): string {
  const today = localDate(now);
  return today < plan.startDate ? plan.startDate : today > plan.endDate ? plan.endDate : today;
}

/** Data rows matched and handed to the writer at a time: memory stays flat however long the file is. */
const SLICE_ROWS = 2000;

async function runImport(db: Db, plan: PlanRecord, req: ImportRequest): Promise<ImportOutcome> {
  const { t } = req;
  const pacer = new EventLoopPacer();
  const source = await openXlsx(req.buffer, IMPORT_LIMITS);
  const ctx: PlanContext = await loadPlanContext(db, plan);
  const scopeClasses = await planScopeClasses(db, ctx);
  const mayWrite = classScopeTest(req.classScope);
  const overlap = onServer(db);

  const failures: Failure[] = [];
  let failureCount = 0;
  const seen = new FirstRows();
  const pending: { row: number; cells: CellValue[] }[] = [];
  let header: { index: number; mapping: HeaderMapping; cells: readonly CellValue[] } | null = null;
  let dataRows = 0;
  // A job shows rows of the file's rows: counted first from the sheet's row tags, without reading the cells.
  let fileRows = 0;
  if (req.onProgress) {
    fileRows = await source.rowCount();
    await req.onProgress(0, fileRows, 'importing');
  }
  let lastRow = 0;
  /** Data rows read and parsed, not yet matched. */
  let rows: { row: number; cells: CellValue[]; parsed: ReturnType<typeof parseTemplateRow> }[] = [];

  const read = (rowNumber: number, cells: CellValue[], mapping: HeaderMapping) => {
    if (isBlankRow(cells)) return;
    dataRows++;
    rows.push({ row: rowNumber, cells, parsed: parseTemplateRow(cells, mapping, rowNumber, { date1904: source.date1904 }) });
  };

  /** The students a slice of rows names: one query by registration number, one by name for the rest. */
  const lookUp = async (slice: typeof rows): Promise<StudentIndex> => {
    const regNos = new Set<string>();
    for (const r of slice) if (r.parsed.ok) regNos.add(r.parsed.row.regNo);
    const byRegNo = await scopeStudentsNamed(db, ctx, scopeClasses, { regNos: [...regNos] });
    const found = new Set<string>();
    for (const s of byRegNo) found.add(s.regNo.toUpperCase());
    const names = new Set<string>();
    for (const r of slice) if (r.parsed.ok && !found.has(r.parsed.row.regNo)) names.add(r.parsed.row.name);
    if (names.size === 0) return new StudentIndex(byRegNo);
    const byName = await scopeStudentsNamed(db, ctx, scopeClasses, { names: [...names] });
    // A student found both ways is one student (not two of the same name).
    return new StudentIndex([...new Map([...byRegNo, ...byName].map((s) => [s.id, s])).values()]);
  };

  /** Counts a failed row; only the rows listed get their reason written and their cells under the header kept. */
  const fail = (cells: CellValue[], reason: () => string) => {
    failureCount++;
    if (failures.length < FAILED_ROWS_LISTED) failures.push({ cells: cells.slice(0, header ? header.cells.length : cells.length), reason: reason() });
  };

  /** Matches a slice of rows with the students looked up for it, in file order. */
  const match = (slice: typeof rows, index: StudentIndex): ResultInput[] => {
    const out: ResultInput[] = [];
    for (const { row: rowNumber, cells, parsed } of slice) {
      if (!parsed.ok) {
        fail(cells, () => formatRowErrors((k, o) => t(k, o), rowNumber, parsed.errors));
        continue;
      }
      const r = parsed.row;
      const student = index.find(r.regNo, r.name, r.className, r.classNo);
      if (student === null) fail(cells, () => rowReason(t, rowNumber, 'regNo', 'physiqueResults:import.studentNotFound'));
      else if (Array.isArray(student)) fail(cells, () => rowReason(t, rowNumber, 'name', 'physiqueResults:import.ambiguousStudent', { name: r.name, className: r.className ?? r.classNo }));
      else if (!mayWrite(student.classId)) fail(cells, () => rowReason(t, rowNumber, 'regNo', 'physiqueResults:import.outOfScope'));
      else if (student.refusal) {
        const refusal = student.refusal;
        fail(cells, () => rowReason(t, rowNumber, 'regNo', retestRefusalKey(refusal)));
      }
      else if (student.grade !== r.grade) fail(cells, () => rowReason(t, rowNumber, 'gradeNo', 'physiqueResults:import.gradeMismatch', { code: nationalCodeFromGrade(student.grade) }));
      else if (student.gender !== r.gender) fail(cells, () => rowReason(t, rowNumber, 'gender', 'physiqueResults:import.genderMismatch'));
      else {
        const results = restrictToItems(r.results, itemsFor(ctx, student.grade, student.gender));
        // A student's second row is refused as a duplicate whatever it holds; a first row without results claims nothing.
        const none = isEmpty(results);
        const first = none ? seen.get(student.id) : seen.claim(student.id, rowNumber);
        if (first !== undefined) {
          fail(cells, () => rowReason(t, rowNumber, 'regNo', 'physiqueResults:import.duplicateRow', { row: first }));
          continue;
        }
        if (none) {
          fail(cells, () => rowReason(t, rowNumber, 'regNo', 'physiqueResults:import.noResults'));
          continue;
        }
        out.push({ studentId: student.id, classId: student.classId, grade: student.grade, gender: student.gender, results });
      }
    }
    return out;
  };

  // Read, validate, match, score and stage in slices outside any transaction; the write at the end is all or nothing.
  // Built once: inside the write transaction (the job keeps it there) and as the answer.
  let outcome: ImportOutcome | null = null;
  const outcomeOf = (success: number): ImportOutcome => {
    if (outcome?.success === success) return outcome;
    const headerCells = header?.cells ?? [];
    return (outcome = { success, failure: failureCount, workbook: scoreFailuresWorkbook(headerCells, failures, failureCount, t), fileName: importFileName(t, success, failureCount) });
  };
  const staged = {
    userId: req.userId,
    now: req.now,
    testedOn: testDay(plan, req.now),
    fileName: req.fileName,
    onStaged: req.onProgress ? () => req.onProgress!(fileRows, fileRows, 'writing') : undefined,
    inWrite: req.inWrite ? (tx: BulkSession, written: number) => req.inWrite!(tx, outcomeOf(written)) : undefined,
  };
  const { written: success } = await stagedImport(db, ctx, staged, async (write) => {
    /**
     * On PostgreSQL (its own process) a slice's students are looked up while the next slice is read, and the slice is
     * matched and staged after that one: the server's work overlaps ours, two slices held at most. PGlite runs in this
     * thread, so there each slice is looked up, matched and staged in turn (docs/decisions/028-score-import-at-copy-speed.md).
     */
    let ahead: { slice: typeof rows; students: Promise<StudentIndex> } | null = null;
    const stageAhead = async () => {
      if (!ahead) return;
      const { slice, students } = ahead;
      ahead = null;
      await write(match(slice, await students));
    };
    const flush = async (atLeast: number) => {
      if (rows.length < atLeast || rows.length === 0) return;
      await req.onProgress?.(Math.min(lastRow, fileRows), fileRows, 'importing');
      const slice = rows;
      rows = [];
      if (!overlap) return write(match(slice, await lookUp(slice)));
      const students = lookUp(slice);
      students.catch(() => {}); // awaited by stageAhead, unless the import fails first
      await stageAhead();
      ahead = { slice, students };
    };
    for await (const batch of source.batches()) {
      for (const { row, cells } of batch) {
        lastRow++;
        if (header) {
          read(row, cells, header.mapping);
          await flush(SLICE_ROWS);
          await pacer.pace();
          continue;
        }
        pending.push({ row, cells });
        if (pending.length < HEADER_SCAN_ROWS) {
          // Decide as soon as a complete header row shows up.
          const m = isBlankRow(cells) ? null : mapHeaders(cells);
          if (!m || m.missing.length > 0) continue;
        }
        const found = headerOf(pending, t);
        header = { ...found, cells: pending.find((p) => p.row === found.index)?.cells ?? [] };
        for (const p of pending) if (p.row > found.index) read(p.row, p.cells, header.mapping);
        pending.length = 0;
      }
    }
    if (!header) {
      headerOf(pending, t);
      throw new AppError(400, 'physiqueResults:import.emptyFile');
    }
    if (dataRows === 0) throw new AppError(400, 'physiqueResults:import.emptyFile');
    await flush(1);
    await stageAhead();
  });
  if (!header) throw new AppError(400, 'physiqueResults:import.emptyFile');
  return outcomeOf(success);
}

/** The failures workbook (server/lib/spreadsheet/import-report.ts) with the registration number column kept as text. */
function scoreFailuresWorkbook(headerCells: readonly CellValue[], failures: readonly Failure[], total: number, t: Translate): Buffer {
  const regCol = headerCells.findIndex((c) => c != null && mapHeaders([c]).columns.has('regNo'));
  return failuresWorkbook({
    header: headerCells,
    failures,
    total,
    sheetName: t('physiqueResults:import.failureSheet', RAW_OPTS),
    reasonColumn: t('physiqueResults:import.reasonColumn', RAW_OPTS),
    more: (count, listed) => t('physiqueResults:import.moreFailures', { count, listed, ...RAW_OPTS }),
    textColumns: regCol >= 0 ? [regCol] : undefined,
  });
}

/** `<prefix>_<success>_<failure>.xlsx` of a score import (docs/product-rules.md#import-files). */
export const importFileName = (t: Translate, success: number, failure: number): string => fileNameWithCounts(t('physiqueResults:import.fileName', RAW_OPTS), success, failure);
