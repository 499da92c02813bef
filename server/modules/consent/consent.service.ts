import { aliasedTable, and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { AppIdentity } from '@/domain/activities/ingest';
import {
  CONSENT_PURPOSES,
  publicStudentName,
  type AppConsent,
  type ConsentChange,
  type ConsentChannel,
  type ConsentCoverage,
  type ConsentListQuery,
  type ConsentOptions,
  type ConsentPurpose,
  type ConsentRecord,
  type ConsentRow,
  type ConsentState,
  type ConsentStatus,
} from '@/domain/consent/consent';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { consentChanges, studentConsents } from '../../db/schema/consent';
import { files } from '../../db/schema/files';
import { classes, grades, students } from '../../db/schema/school';
import { AppError, fieldError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { classScopeOf, inClassScope, type ClassScope } from '../../lib/data-scope';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { readSecuritySettings } from '../security/settings.service';

/** The guardian consent register (docs/product-rules.md#consent): the checks features call, and its two sides. */

// ── The checks features call ───────────────────────────────────────────────────────────────────────────────────

/** Which of `studentIds` have `purpose` given now: one query, in the caller's transaction (a withdrawal and a write do not cross). */
export async function consentedStudents(db: DbOrTx, purpose: ConsentPurpose, studentIds: readonly string[]): Promise<Set<string>> {
  const ids = [...new Set(studentIds)];
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: studentConsents.studentId })
    .from(studentConsents)
    .where(and(inArray(studentConsents.studentId, ids), eq(studentConsents.purpose, purpose), eq(studentConsents.state, 'given')));
  return new Set(rows.map((r) => r.id));
}

/** Students named in a refusal before "…". */
const NAMES_IN_MESSAGE = 5;

/**
 * Refuses (409, nothing written) when any of `students` lacks `purpose`: the message names how many and who
 * (`consent:refused.<purpose>`), never a silent skip.
 */
export async function requireConsent(db: DbOrTx, purpose: ConsentPurpose, people: readonly { id: string; name: string }[]): Promise<void> {
  const given = await consentedStudents(
    db,
    purpose,
    people.map((p) => p.id),
  );
  const missing = people.filter((p) => !given.has(p.id));
  if (missing.length === 0) return;
  const names = missing.slice(0, NAMES_IN_MESSAGE).map((p) => p.name);
  throw new AppError(409, `consent:refused.${purpose}`, { count: missing.length, names: names.join('、') + (missing.length > names.length ? ' …' : '') });
}

/**
 * The names a public board of `orgId` shows (docs/product-rules.md#consent, "Public boards"): full with the student's
 * `publicName` consent, else surname + *; everyone masked when the organisation chose `maskStudentNames`. One read of
 * the settings and one of the register for the whole board.
 */
export async function publicNamesOf(db: DbOrTx, orgId: string, studentIds: readonly (string | null)[]): Promise<(studentId: string | null, name: string) => string> {
  const { maskStudentNames } = await readSecuritySettings(db, orgId);
  const consented = maskStudentNames ? new Set<string>() : await consentedStudents(db, 'publicName', studentIds.filter((id): id is string => Boolean(id)));
  return (studentId, name) => publicStudentName(name, { consented: studentId !== null && consented.has(studentId), maskAll: maskStudentNames });
}

// ── Writing a change ─────────────────────────────────────────────────────────────────────────────────────────

interface ChangeInput {
  orgId: string;
  studentId: string;
  purpose: ConsentPurpose;
  state: ConsentState;
  channel: ConsentChannel;
  userId: string;
  formFileId: string | null;
  note: string;
  now: Date;
  /** The version the change was made on (0: none yet); a different current version is a stale form (409). */
  expectedVersion?: number;
}

/** Sets the current state and appends the change, in the caller's transaction; answers the state before. */
async function writeChange(tx: Tx, c: ChangeInput): Promise<{ before: ConsentStatus; version: number }> {
  const [current] = await tx
    .select({ state: studentConsents.state, version: studentConsents.version })
    .from(studentConsents)
    .where(and(eq(studentConsents.studentId, c.studentId), eq(studentConsents.purpose, c.purpose)))
    .for('update');
  if (c.expectedVersion !== undefined && c.expectedVersion !== (current?.version ?? 0)) throw new AppError(409, 'consent:stale');
  const version = (current?.version ?? 0) + 1;
  const values = { state: c.state, channel: c.channel, changedBy: c.userId || null, changedAt: c.now, version };
  await tx
    .insert(studentConsents)
    .values({ studentId: c.studentId, purpose: c.purpose, orgId: c.orgId, ...values })
    .onConflictDoUpdate({ target: [studentConsents.studentId, studentConsents.purpose], set: values });
  await tx.insert(consentChanges).values({
    orgId: c.orgId,
    studentId: c.studentId,
    purpose: c.purpose,
    state: c.state,
    channel: c.channel,
    formFileId: c.formFileId,
    note: c.note,
    changedBy: c.userId || null,
    changedAt: c.now,
  });
  return { before: current?.state ?? 'none', version };
}

/** A student of the tenant in the actor's data scope (404 otherwise). */
async function scopedStudent(db: DbOrTx, actor: Actor, id: string, scope?: ClassScope) {
  const s = scope ?? (await classScopeOf(db, actor));
  const [row] = await db
    .select({ id: students.id, name: students.name })
    .from(students)
    .where(and(eq(students.id, id), eq(students.orgId, actor.tenantOrgId), inClassScope(s, students.classId)));
  if (!row) throw notFound();
  return row;
}

/**
 * The school records a signed paper form (button edit): the scan must be a file of the tenant's store (uploaded
 * through the file store kit); the change and its audit row in one transaction.
 */
export async function recordConsent(tx: Tx, actor: Actor, studentId: string, body: ConsentRecord, now: Date) {
  const student = await scopedStudent(tx, actor, studentId);
  const [form] = await tx
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.id, body.formFileId), eq(files.orgId, actor.tenantOrgId), isNull(files.deletedAt)));
  if (!form) throw fieldError('formFileId', 'consent:formRequired');
  const { before, version } = await writeChange(tx, {
    orgId: actor.tenantOrgId,
    studentId,
    purpose: body.purpose,
    state: body.state,
    channel: 'school',
    userId: actor.userId,
    formFileId: body.formFileId,
    note: body.note,
    now,
    expectedVersion: body.version,
  });
  const after = { purpose: body.purpose, state: body.state, channel: 'school' as const, formFileId: body.formFileId, note: body.note, version };
  return { before: { purpose: body.purpose, state: before }, after: { ...after, name: student.name } };
}

// ── The app side (a parent) ──────────────────────────────────────────────────────────────────────────────────

/** The children the caller is a parent of (a student's own account does not consent for itself). */
const childrenOf = (identity: AppIdentity) => identity.students.filter((s) => s.relation !== null);

export async function appConsents(db: DbOrTx, identity: AppIdentity): Promise<AppConsent[]> {
  const kids = childrenOf(identity);
  if (kids.length === 0) return [];
  const rows = await db
    .select({ studentId: studentConsents.studentId, purpose: studentConsents.purpose, state: studentConsents.state, channel: studentConsents.channel, changedAt: studentConsents.changedAt })
    .from(studentConsents)
    .where(
      inArray(
        studentConsents.studentId,
        kids.map((k) => k.id),
      ),
    );
  return kids.map((k) => ({
    studentId: k.id,
    studentName: k.name,
    purposes: CONSENT_PURPOSES.map((purpose) => {
      const r = rows.find((x) => x.studentId === k.id && x.purpose === purpose);
      return { purpose, status: r?.state ?? 'none', changedAt: r ? r.changedAt.toISOString() : null, channel: r?.channel ?? null };
    }),
  }));
}

/** A parent gives or withdraws one purpose for one of their own children (another family's child: 404), audited. */
export async function appSetConsent(tx: Tx, identity: AppIdentity, studentId: string, purpose: ConsentPurpose, state: ConsentState, now: Date): Promise<AppConsent> {
  const child = childrenOf(identity).find((k) => k.id === studentId);
  if (!child) throw notFound();
  const { before, version } = await writeChange(tx, { orgId: child.orgId, studentId, purpose, state, channel: 'app', userId: identity.userId, formFileId: null, note: '', now });
  await audit(
    tx,
    { userId: identity.userId, accountId: null as unknown as string, tenantOrgId: child.orgId },
    {
      action: state === 'given' ? 'giveConsent' : 'withdrawConsent',
      entity: 'studentConsent',
      entityId: studentId,
      entityName: child.name,
      before: { purpose, state: before },
      after: { purpose, state, channel: 'app', version },
    },
  );
  const [answer] = await appConsents(tx, { ...identity, students: [child] });
  return answer;
}

// ── The school screen ───────────────────────────────────────────────────────────────────────────────────────

const PURPOSE_COUNT = CONSENT_PURPOSES.length;
/** Students on the register: enabled and studying (a graduate's or a transferred student's consent is not asked). */
const onRoll = and(eq(students.enabled, true), eq(students.status, 'studying'));

const stateIs = (purpose: ConsentPurpose, state: ConsentState) =>
  sql`exists (select 1 from ${studentConsents} c where c.student_id = ${students.id} and c.purpose = ${purpose} and c.state = ${state})`;
const recorded = (purpose: ConsentPurpose) => sql`exists (select 1 from ${studentConsents} c where c.student_id = ${students.id} and c.purpose = ${purpose})`;
const givenCount = sql`(select count(*) from ${studentConsents} c where c.student_id = ${students.id} and c.state = 'given')`;
const recordedCount = sql`(select count(*) from ${studentConsents} c where c.student_id = ${students.id})`;

/** The status filter: with a purpose that purpose's; without, `none` any purpose missing, `withdrawn` any withdrawn, `given` all given. */
function statusWhere(q: Pick<ConsentListQuery, 'purpose' | 'status'>): SQL | undefined {
  if (!q.status) return undefined;
  if (q.purpose) return q.status === 'none' ? sql`not ${recorded(q.purpose)}` : stateIs(q.purpose, q.status);
  if (q.status === 'none') return sql`${recordedCount} < ${PURPOSE_COUNT}`;
  if (q.status === 'given') return sql`${givenCount} = ${PURPOSE_COUNT}`;
  return sql`exists (select 1 from ${studentConsents} c where c.student_id = ${students.id} and c.state = 'withdrawn')`;
}

function listWhere(actor: Actor, scope: ClassScope, q: Omit<ConsentListQuery, 'current' | 'size'>): SQL | undefined {
  return and(
    eq(students.orgId, actor.tenantOrgId),
    onRoll,
    inClassScope(scope, students.classId),
    q.classId ? eq(students.classId, q.classId) : undefined,
    statusWhere(q),
    q.keyword ? or(ilike(students.name, containsPattern(q.keyword)), ilike(students.regNo, containsPattern(q.keyword))) : undefined,
  );
}

const rowColumns = { id: students.id, name: students.name, regNo: students.regNo, classId: students.classId, className: classes.name };
const selectStudents = (db: DbOrTx) => db.select(rowColumns).from(students).innerJoin(classes, eq(classes.id, students.classId)).innerJoin(grades, eq(grades.id, classes.gradeId));
const ORDER = [asc(grades.gradeNo), asc(classes.code), asc(students.regNo)];

/** The register of the listed students: one query for the page. */
async function withConsents(db: DbOrTx, rows: readonly { id: string; name: string; regNo: string; classId: string; className: string }[]): Promise<ConsentRow[]> {
  if (rows.length === 0) return [];
  const states = await db
    .select({ studentId: studentConsents.studentId, purpose: studentConsents.purpose, state: studentConsents.state, version: studentConsents.version })
    .from(studentConsents)
    .where(
      inArray(
        studentConsents.studentId,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((r) => {
    const mine = states.filter((s) => s.studentId === r.id);
    const of = (p: ConsentPurpose) => mine.find((s) => s.purpose === p);
    return {
      ...r,
      consents: Object.fromEntries(CONSENT_PURPOSES.map((p) => [p, of(p)?.state ?? 'none'])) as Record<ConsentPurpose, ConsentStatus>,
      versions: Object.fromEntries(CONSENT_PURPOSES.map((p) => [p, of(p)?.version ?? 0])),
    };
  });
}

export async function consentPage(db: DbOrTx, actor: Actor, q: ConsentListQuery): Promise<Page<ConsentRow>> {
  const scope = await classScopeOf(db, actor);
  const page = await paginate(
    db,
    selectStudents(db)
      .where(listWhere(actor, scope, q))
      .orderBy(...ORDER)
      .$dynamic(),
    q,
  );
  return { ...page, records: await withConsents(db, page.records) };
}

const EXPORT_MAX = 20_000;
export async function consentRows(db: DbOrTx, actor: Actor, q: Omit<ConsentListQuery, 'current' | 'size'>): Promise<ConsentRow[]> {
  const scope = await classScopeOf(db, actor);
  const rows = await selectStudents(db)
    .where(listWhere(actor, scope, q))
    .orderBy(...ORDER)
    .limit(EXPORT_MAX);
  return withConsents(db, rows);
}

/** One student's row (the record dialog reopens it after a change). */
export async function consentRowOf(db: DbOrTx, actor: Actor, id: string): Promise<ConsentRow> {
  const scope = await classScopeOf(db, actor);
  const rows = await selectStudents(db).where(and(listWhere(actor, scope, {}), eq(students.id, id)));
  if (rows.length === 0) throw notFound();
  return (await withConsents(db, rows))[0];
}

/** Every change of a student's consent, newest first, with who made it and the form's file. */
export async function consentHistory(db: DbOrTx, actor: Actor, studentId: string): Promise<ConsentChange[]> {
  await scopedStudent(db, actor, studentId);
  const changer = aliasedTable(users, 'changer');
  const rows = await db
    .select({
      id: consentChanges.id,
      purpose: consentChanges.purpose,
      state: consentChanges.state,
      channel: consentChanges.channel,
      changedByName: changer.name,
      changedAt: consentChanges.changedAt,
      formFileId: consentChanges.formFileId,
      formName: files.name,
      note: consentChanges.note,
    })
    .from(consentChanges)
    .leftJoin(changer, eq(changer.id, consentChanges.changedBy))
    .leftJoin(files, eq(files.id, consentChanges.formFileId))
    .where(and(eq(consentChanges.studentId, studentId), eq(consentChanges.orgId, actor.tenantOrgId)))
    .orderBy(desc(consentChanges.seq));
  return rows.map((r) => ({ ...r, changedAt: r.changedAt.toISOString() }));
}

/** Per class of the actor's scope and per purpose: students on the roll and how many gave consent. */
export async function consentCoverage(db: DbOrTx, actor: Actor, q: { classId?: string }): Promise<ConsentCoverage> {
  const scope = await classScopeOf(db, actor);
  const where = and(eq(students.orgId, actor.tenantOrgId), onRoll, inClassScope(scope, students.classId), q.classId ? eq(students.classId, q.classId) : undefined);
  const [roll, given] = await Promise.all([
    db
      .select({ classId: classes.id, className: classes.name, students: count() })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(where)
      .groupBy(classes.id, classes.name, grades.gradeNo, classes.code)
      .orderBy(asc(grades.gradeNo), asc(classes.code)),
    db
      .select({ classId: students.classId, purpose: studentConsents.purpose, given: count() })
      .from(studentConsents)
      .innerJoin(students, eq(students.id, studentConsents.studentId))
      .where(and(where, eq(studentConsents.state, 'given')))
      .groupBy(students.classId, studentConsents.purpose),
  ]);
  const zero = () => Object.fromEntries(CONSENT_PURPOSES.map((p) => [p, 0])) as Record<string, number>;
  const total = { students: 0, given: zero() };
  const rows = roll.map((c) => {
    const g = zero();
    for (const x of given) if (x.classId === c.classId) g[x.purpose] = x.given;
    total.students += c.students;
    for (const p of CONSENT_PURPOSES) total.given[p] += g[p];
    return { ...c, given: g };
  });
  return { purposes: [...CONSENT_PURPOSES], classes: rows, total };
}

export async function consentOptions(db: DbOrTx, actor: Actor): Promise<ConsentOptions> {
  const scope = await classScopeOf(db, actor);
  const cls = await db
    .select({ id: classes.id, name: classes.name })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, actor.tenantOrgId), eq(grades.graduated, false), inClassScope(scope, classes.id)))
    .orderBy(asc(grades.gradeNo), asc(classes.code));
  return { classes: cls };
}

// ── Seeds and tests ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Records consent for many students at once as the school (the demo seed and the tests' setup): one change row per
 * student and purpose, the current state upserted. The demo's paper forms are the one scan `formFileId`.
 */
export async function recordConsentsInBulk(
  tx: Tx,
  input: { orgId: string; studentIds: readonly string[]; purposes?: readonly ConsentPurpose[]; state?: ConsentState; userId?: string | null; formFileId?: string | null; now: Date },
): Promise<number> {
  const purposes = input.purposes ?? CONSENT_PURPOSES;
  const state = input.state ?? 'given';
  if (input.studentIds.length === 0) return 0;
  const pairs = input.studentIds.flatMap((studentId) => purposes.map((purpose) => ({ studentId, purpose })));
  const common = { orgId: input.orgId, state, channel: 'school' as const, changedBy: input.userId ?? null, changedAt: input.now };
  for (let i = 0; i < pairs.length; i += 2000) {
    const chunk = pairs.slice(i, i + 2000);
    await tx
      .insert(studentConsents)
      .values(chunk.map((p) => ({ ...p, ...common })))
      .onConflictDoUpdate({
        target: [studentConsents.studentId, studentConsents.purpose],
        set: { state, channel: 'school', changedBy: common.changedBy, changedAt: input.now, version: sql`${studentConsents.version} + 1` },
      });
    await tx.insert(consentChanges).values(chunk.map((p) => ({ ...p, ...common, formFileId: input.formFileId ?? null, note: '' })));
  }
  return pairs.length;
}
