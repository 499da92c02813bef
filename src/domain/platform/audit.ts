/**
 * The words of the operation log (docs/product-rules.md#audit, #platform-logs): every action and record type the
 * server writes to `audit_logs`, each with its label `platform:audit.action.<code>` / `platform:audit.entity.<code>`.
 * `audit()` (server/lib/audit.ts) takes only these codes, so a new one does not type-check until it is listed here;
 * tests/domain/platform/audit-labels.test.ts checks every one has a label in each language.
 */

export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'import',
  'copy',
  'status',
  'move',
  'reset',
  'resetPassword',
  'giveAppAccount',
  'appAccountStatus',
  'resetAppPassword',
  'facePhotos',
  'transfer',
  'addMembers',
  'removeMember',
  'publish',
  'unpublish',
  'end',
  'review',
  'invalid',
  'valid',
  'approve',
  'issue',
  'issueSecret',
  'revokeSecret',
  'attachDevices',
  'detachDevice',
  'addPhotos',
  'caption',
  'createBoardLink',
  'revokeBoardLink',
  'signUp',
  'signUpTeam',
  'signUpImport',
  'withdraw',
  'editTeam',
  'bib',
  'draw',
  'clearArrangement',
  'moveLane',
  'schedule',
  'moveSlot',
  'enterResults',
  'confirm',
  'rollover',
  'undoRollover',
  'signOut',
  'revoke',
  'reopen',
  'correctDates',
  'restore',
  'followUp',
  'createTraining',
  'attachTrainings',
  'detachTraining',
  'checkIn',
  'enter',
  'appeal',
  'resolve',
  'decide',
  'lendBands',
  'acknowledge',
  'read',
  'download',
  'giveConsent',
  'withdrawConsent',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ENTITIES = [
  'org',
  'department',
  'role',
  'user',
  'menu',
  'session',
  'schoolYear',
  'schoolRollover',
  'grade',
  'class',
  'college',
  'major',
  'staff',
  'teacher',
  'student',
  'parent',
  'venue',
  'device',
  'physiqueImport',
  'exerciseRecord',
  'contest',
  'contestEntry',
  'homework',
  'homeworkSubmission',
  'trainingPlan',
  'lesson',
  'meet',
  'meetRecord',
  'meetStamp',
  'meetPhoto',
  'meetCertificate',
  'banner',
  'wiki',
  'lessonResource',
  'libraryResource',
  'testPlan',
  'physiqueResult',
  'testRecord',
  'screenLink',
  'conversionTable',
  'warningCase',
  'warningSetting',
  'testDayStation',
  'testDayEntry',
  'physiqueExemption',
  'platformSetting',
  'notice',
  'dictionaryEntry',
  'exportRequest',
  'dataRequest',
  'securitySetting',
  'twoFactor',
  'studentConsent',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

const ACTIONS: ReadonlySet<string> = new Set(AUDIT_ACTIONS);
const ENTITIES: ReadonlySet<string> = new Set(AUDIT_ENTITIES);
export const isAuditAction = (code: string): code is AuditAction => ACTIONS.has(code);
export const isAuditEntity = (code: string): code is AuditEntity => ENTITIES.has(code);

/** The label key of an action; an unknown code (a row older than the table) has none and is shown as written. */
export const auditActionKey = (code: string): string | null => (isAuditAction(code) ? `platform:audit.action.${code}` : null);
export const auditEntityKey = (code: string): string | null => (isAuditEntity(code) ? `platform:audit.entity.${code}` : null);

/** Translates a key; the domain takes i18next's `t` without importing it. */
type Translate = (key: string) => string;

/** An action in words (a code older than the table as written). */
export const auditActionLabel = (t: Translate, code: string): string => {
  const key = auditActionKey(code);
  return key ? t(key) : code;
};
/** A record type in words (a code older than the table as written). */
export const auditEntityLabel = (t: Translate, code: string): string => {
  const key = auditEntityKey(code);
  return key ? t(key) : code;
};

/**
 * Fields of a logged record whose label the detail shows (`platform:audit.field.<key>`); other fields show their
 * key. The fields that say nothing to a reader (ids of the row itself, its organisation) are left out of the view.
 */
export const AUDIT_FIELDS = [
  'name',
  'title',
  'code',
  'shortName',
  'accountNum',
  'mobile',
  'email',
  'gender',
  'birthDate',
  'regNo',
  'studentNo',
  'workNo',
  'idCard',
  'nation',
  'enabled',
  'status',
  'state',
  'published',
  'invalid',
  'reason',
  'remark',
  'description',
  'content',
  'sortNum',
  'sort',
  'type',
  'kind',
  'identity',
  'stage',
  'gradeNo',
  'gradeId',
  'classId',
  'classNo',
  'size',
  'studentCount',
  'headTeacherId',
  'peTeacherId',
  'collegeId',
  'majorId',
  'schoolYearId',
  'planId',
  'venueId',
  'deviceId',
  'studentId',
  'teacherId',
  'userId',
  'roleIds',
  'classIds',
  'enrolYear',
  'academicYear',
  'semesterCode',
  'startDate',
  'endDate',
  'startsAt',
  'endsAt',
  'deadline',
  'item',
  'items',
  'value',
  'target',
  'location',
  'serialNo',
  'mac',
  'model',
  'activated',
  'secretIssuedAt',
  'relation',
  'children',
  'photoFileId',
  'imageFileId',
  'fileId',
  'link',
  'url',
  'mode',
  'mustChangePassword',
  'added',
  'removed',
  'ids',
  'count',
  'accounts',
  'created',
  'expiresAt',
  'revokedAt',
  'ip',
  'signedInAt',
  'version',
  'createdAt',
  'updatedAt',
] as const;
export type AuditField = (typeof AUDIT_FIELDS)[number];
const FIELDS: ReadonlySet<string> = new Set(AUDIT_FIELDS);
export const auditFieldKey = (field: string): string | null => (FIELDS.has(field) ? `platform:audit.field.${field}` : null);

/** Fields of a logged record the detail leaves out: the row's own id and its organisation say nothing to a reader. */
export const AUDIT_HIDDEN_FIELDS: ReadonlySet<string> = new Set(['id', 'orgId']);

/** Fields of a record that name it, first found wins (the operation log shows the name beside the id). */
export const AUDIT_NAME_FIELDS = ['name', 'title', 'serialNo', 'accountNum'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The name of the record a log row is about, from the record as it was after (or before) the write: only when that
 * record is the row's own (its `id` is the row's entity id), so a meet's log row does not take the name of one of its
 * teams. Null when there is none.
 */
export function auditObjectName(entityId: string | null | undefined, before: unknown, after: unknown): string | null {
  for (const record of [after, before]) {
    if (!isRecord(record) || entityId == null || String(record.id) !== entityId) continue;
    for (const field of AUDIT_NAME_FIELDS) {
      const v = record[field];
      if (typeof v === 'string' && v.trim()) return v.trim().slice(0, AUDIT_NAME_MAX);
    }
  }
  return null;
}

/** The longest object name a log row keeps. */
export const AUDIT_NAME_MAX = 200;

export interface AuditFieldChange {
  field: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields of the record before and after one operation, changed ones first (in the record's order), hidden fields
 * left out. A value that is not a record (a list of ids) is one row with the empty field name.
 */
export function auditFieldChanges(before: unknown, after: unknown): AuditFieldChange[] {
  if (!isRecord(before) && !isRecord(after)) {
    if (before == null && after == null) return [];
    return [{ field: '', before: before ?? null, after: after ?? null, changed: !same(before, after) }];
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const rows = [...new Set([...Object.keys(b), ...Object.keys(a)])]
    .filter((field) => !AUDIT_HIDDEN_FIELDS.has(field))
    .map((field) => ({ field, before: b[field] ?? null, after: a[field] ?? null, changed: !same(b[field], a[field]) }));
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}
