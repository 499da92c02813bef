import { z } from 'zod';
import { enumFilter, nullableId, optionalText, requiredNumber, requiredText, uuid } from '../fields';
import { idFilter, intFilter, listQuery, versionField } from '../list-query';
import { enumTable } from '../presentation';
import { ITEM_KEYS, type ItemKey } from '../physique/standard';
import { checkPeriod, taskFields } from '../homework/homework';

/** A yes/no switch (a checkbox's boolean, or 'true' / 'false' from a form). */
const flag = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: 'validation:common.invalid' }));

/**
 * Physique warnings that get followed up (docs/product-rules.md#warnings): who warns (each kind's rule and its
 * threshold, per organisation with the defaults below), and a warning's case (assigned teacher, actions, open → closed).
 */

/** The kinds of warning, in the order the list and the cards show them. */
export const WARNING_KINDS = ['failingItem', 'bmi', 'decline', 'missing'] as const;
export type WarningKind = (typeof WARNING_KINDS)[number];
export const WARNING_KIND_TABLE = enumTable(WARNING_KINDS, (k) => `warnings:kind.${k}`, { failingItem: 'danger', bmi: 'warning', decline: 'warning', missing: 'neutral' });

/** BMI bands (the standard's BMI levels other than normal) that may warn. */
export const WARNING_BMI_BANDS = ['obese', 'overweight', 'lowWeight'] as const;
export type WarningBmiBand = (typeof WARNING_BMI_BANDS)[number];
export const WARNING_BMI_BAND_TABLE = enumTable(WARNING_BMI_BANDS, (b) => `warnings:bmiBand.${b}`, { obese: 'danger', overweight: 'warning', lowWeight: 'warning' });

/** The items that may fail (BMI has bands, not a pass level). */
export const FAILING_ITEMS = ITEM_KEYS.filter((k) => k !== 'bmi') as Exclude<ItemKey, 'bmi'>[];

/** Decline threshold in points of the year's total since last year: 1–100. */
export const DECLINE_POINTS_MIN = 1;
export const DECLINE_POINTS_MAX = 100;

/** An organisation's thresholds (docs/product-rules.md#warnings). */
export interface WarningSettings {
  /** Warn a student whose year total fell by MORE than this many points since last year. */
  declinePoints: number;
  /** BMI bands that warn. */
  bmiBands: WarningBmiBand[];
  /** Warn a student with at least one failing item. */
  failingItem: boolean;
  /** Warn a student in the scope of the current plan without a result in it. */
  missing: boolean;
}

/** The defaults an organisation has until it saves its own. */
export const DEFAULT_WARNING_SETTINGS: WarningSettings = { declinePoints: 10, bmiBands: ['obese', 'lowWeight'], failingItem: true, missing: true };

export const warningSettingsSchema = z.object({
  declinePoints: requiredNumber('warnings:settings.declineRequired').pipe(
    z.number().int('validation:common.int').min(DECLINE_POINTS_MIN, 'warnings:settings.declineRange').max(DECLINE_POINTS_MAX, 'warnings:settings.declineRange'),
  ),
  bmiBands: z
    .array(z.enum(WARNING_BMI_BANDS, { error: 'validation:common.invalid' }), { error: 'validation:common.invalid' })
    .max(WARNING_BMI_BANDS.length, 'validation:common.invalid')
    .transform((b) => WARNING_BMI_BANDS.filter((x) => b.includes(x))),
  failingItem: flag,
  missing: flag,
  version: versionField.optional(),
});
export type WarningSettingsSave = z.output<typeof warningSettingsSchema>;
export type WarningSettingsForm = z.input<typeof warningSettingsSchema>;
export interface WarningSettingsRow extends WarningSettings {
  /** 0 while the organisation uses the defaults (nothing saved yet). */
  version: number;
  updatedAt: string | null;
}

/** A case's state: open until a teacher closes it (it may be reopened). */
export const CASE_STATUSES = ['open', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const CASE_STATUS_TABLE = enumTable(CASE_STATUSES, (s) => `warnings:caseStatus.${s}`, { open: 'warning', closed: 'success' });
/** The list's case filter: no case yet, or a case in a state. */
export const CASE_FILTERS = ['none', ...CASE_STATUSES] as const;
export const CASE_FILTER_TABLE = enumTable(CASE_FILTERS, (s) => `warnings:caseFilter.${s}`);

export const warningListQuery = listQuery({
  /** Start year of the school year (2025 = 2025-2026); absent: the current school year. */
  schoolYear: intFilter,
  gradeNo: intFilter,
  classId: idFilter,
  kind: enumFilter(WARNING_KINDS, 'validation:common.invalid'),
  caseStatus: enumFilter(CASE_FILTERS, 'validation:common.invalid'),
});
export type WarningListQuery = z.output<typeof warningListQuery>;
export const warningExportQuery = warningListQuery.omit({ current: true, size: true });

/** One warning: a student and one kind, with what warns and its case, if any. */
export interface WarningRow {
  /** `<studentId>:<kind>` (a student may have several kinds). */
  id: string;
  studentId: string;
  name: string;
  regNo: string;
  gender: 'male' | 'female';
  classId: string;
  className: string;
  gradeNo: number;
  kind: WarningKind;
  /** failingItem: the items failed in the latest result of the year. */
  items: string[];
  /** bmi: the band and value. */
  bmiBand: WarningBmiBand | null;
  bmi: number | null;
  /** decline: last year's and this year's totals (the year's result) and the fall in points. */
  lastTotal: number | null;
  thisTotal: number | null;
  declinePoints: number | null;
  /** missing: the plan the student has no result in. */
  planName: string | null;
  caseId: string | null;
  caseStatus: CaseStatus | null;
  assignedTeacherName: string | null;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;
const RAW = { interpolation: { escapeValue: false } };

/** What warns, as text (the list's and the export's detail; a case's detail at opening). */
export function warningDetailText(r: { kind: WarningKind } & CaseDetailData, t: Translate): string {
  switch (r.kind) {
    case 'failingItem':
      return (r.items ?? []).map((i) => t(`physique:item.${i}`, RAW)).join(t('warnings:separator', RAW));
    case 'bmi':
      return r.bmiBand ? t('warnings:bmiText', { band: t(`warnings:bmiBand.${r.bmiBand}`, RAW), bmi: r.bmi == null ? '—' : r.bmi.toFixed(1), ...RAW }) : '';
    case 'decline':
      return t('warnings:declineText', { last: r.lastTotal, now: r.thisTotal, points: r.declinePoints, ...RAW });
    case 'missing':
      return t('warnings:missingText', { plan: r.planName ?? '', ...RAW });
  }
}

/** Counts for the dashboard card and the district column. */
export interface WarningCounts {
  byKind: Record<WarningKind, number>;
  /** Students with at least one warning. */
  students: number;
  openCases: number;
  closedCases: number;
}
export interface WarningSummary extends WarningCounts {
  academicYear: string | null;
}
export interface DistrictWarningRow extends WarningCounts {
  orgId: string;
  orgName: string;
  academicYear: string | null;
}

/**
 * The wall's warnings scene (docs/product-rules.md#warnings): counts of the organisation (a district's summed over its
 * schools, with each school's), never a student.
 */
export interface WarningsSceneData {
  scene: 'warnings';
  counts: WarningCounts;
  schools: { orgName: string; students: number; openCases: number; closedCases: number }[];
}

export interface WarningOptions {
  schoolYears: { schoolYear: number; academicYear: string; current: boolean }[];
  grades: number[];
  classes: { id: string; name: string; gradeNo: number }[];
  teachers: { id: string; name: string }[];
}

/** Note text limit of a case and its actions. */
export const CASE_NOTE_MAX = 500;
const note = optionalText(CASE_NOTE_MAX, 'validation:common.tooLong');
const requiredNote = requiredText(CASE_NOTE_MAX, 'warnings:case.noteRequired');

/** POST …/cases: a warning becomes a case. */
export const caseOpenSchema = z.object({
  studentId: uuid('warnings:case.studentRequired'),
  kind: z.enum(WARNING_KINDS, { error: 'warnings:case.kindRequired' }),
  /** The school year of the warning (start year); absent: the current one. */
  schoolYear: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number({ error: 'validation:common.invalid' }).int('validation:common.int').optional()),
  assignedTeacherId: nullableId('warnings:case.teacherRequired'),
  note,
});
export type CaseOpen = z.output<typeof caseOpenSchema>;

/** PUT …/:id: who follows the case up, and its state (a closing needs a note: what was done). */
export const caseSaveSchema = z
  .object({
    assignedTeacherId: nullableId('warnings:case.teacherRequired'),
    status: z.enum(CASE_STATUSES, { error: 'warnings:case.statusRequired' }),
    note,
    version: versionField,
  })
  .superRefine((v, ctx) => {
    if (v.status === 'closed' && !v.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'warnings:case.closeNoteRequired' });
  });
export type CaseSave = z.output<typeof caseSaveSchema>;
export type CaseSaveForm = z.input<typeof caseSaveSchema>;

/** Actions recorded on a case besides a training plan (linked records). */
export const CASE_ACTION_KINDS = ['parentContacted', 'retest', 'note'] as const;
export type CaseActionKind = (typeof CASE_ACTION_KINDS)[number];
export const CASE_ACTION_TABLE = enumTable(CASE_ACTION_KINDS, (k) => `warnings:action.${k}`);

/** POST …/:id/actions. */
export const caseActionSchema = z.object({
  kind: z.enum(CASE_ACTION_KINDS, { error: 'warnings:case.actionRequired' }),
  note: requiredNote,
  version: versionField,
});
export type CaseAction = z.output<typeof caseActionSchema>;
export type CaseActionForm = z.input<typeof caseActionSchema>;

/** What a case's history records. */
export const CASE_EVENT_KINDS = ['opened', 'assigned', 'parentContacted', 'retest', 'note', 'trainingLinked', 'trainingUnlinked', 'trainingCreated', 'closed', 'reopened'] as const;
export type CaseEventKind = (typeof CASE_EVENT_KINDS)[number];

/** POST …/:id/training: a special-training plan made for the case's student (the training module's rules). */
export const caseTrainingSchema = z.object({ ...taskFields }).superRefine(checkPeriod);
export type CaseTraining = z.output<typeof caseTrainingSchema>;

/** …/:id/trainings: the training plans linked to a case. */
export const caseTrainingListQuery = listQuery({});
export const caseTrainingCandidateQuery = z.object({});
export const caseTrainingLinkSchema = z.object({
  trainingPlanIds: z.array(uuid(), { error: 'warnings:case.trainingRequired' }).min(1, 'warnings:case.trainingRequired').max(50, 'validation:common.tooBig'),
});
export interface CaseTrainingRow {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
}

export interface CaseEvent {
  id: string;
  kind: CaseEventKind;
  note: string | null;
  detail: string | null;
  byName: string | null;
  at: string;
}

/** A case as the list and the dialog read it. */
export interface CaseRow {
  id: string;
  studentId: string;
  studentName: string;
  regNo: string;
  className: string;
  kind: WarningKind;
  academicYear: string;
  /** What warned at opening (items, band, points), as text the dialog shows. */
  detail: CaseDetailData;
  status: CaseStatus;
  assignedTeacherId: string | null;
  assignedTeacherName: string | null;
  openedByName: string | null;
  openedAt: string;
  closedAt: string | null;
  version: number;
}
export interface CaseDetailData {
  items?: string[];
  bmiBand?: string | null;
  bmi?: number | null;
  lastTotal?: number | null;
  thisTotal?: number | null;
  declinePoints?: number | null;
  planName?: string | null;
}
export interface CaseDetail extends CaseRow {
  events: CaseEvent[];
  trainings: CaseTrainingRow[];
}

export const caseListQuery = listQuery({
  status: enumFilter(CASE_STATUSES, 'validation:common.invalid'),
  kind: enumFilter(WARNING_KINDS, 'validation:common.invalid'),
});

// ── Answers (the console API document) ─────────────────────────────
export const warningRowSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  name: z.string(),
  regNo: z.string(),
  gender: z.enum(['male', 'female']),
  classId: z.string(),
  className: z.string(),
  gradeNo: z.number().int(),
  kind: z.enum(WARNING_KINDS),
  items: z.array(z.string()),
  bmiBand: z.enum(WARNING_BMI_BANDS).nullable(),
  bmi: z.number().nullable(),
  lastTotal: z.number().nullable(),
  thisTotal: z.number().nullable(),
  declinePoints: z.number().nullable(),
  planName: z.string().nullable(),
  caseId: z.string().nullable(),
  caseStatus: z.enum(CASE_STATUSES).nullable(),
  assignedTeacherName: z.string().nullable(),
});
const countsShape = {
  byKind: z.object(Object.fromEntries(WARNING_KINDS.map((k) => [k, z.number().int()])) as Record<WarningKind, z.ZodNumber>),
  students: z.number().int(),
  openCases: z.number().int(),
  closedCases: z.number().int(),
};
export const warningSummarySchema = z.object({ ...countsShape, academicYear: z.string().nullable() });
export const districtWarningsSchema = z.array(z.object({ ...countsShape, orgId: z.string(), orgName: z.string(), academicYear: z.string().nullable() }));
export const warningSettingsRowSchema = z.object({
  declinePoints: z.number().int(),
  bmiBands: z.array(z.enum(WARNING_BMI_BANDS)),
  failingItem: z.boolean(),
  missing: z.boolean(),
  version: z.number().int(),
  updatedAt: z.string().nullable(),
});
export const warningOptionsSchema = z.object({
  schoolYears: z.array(z.object({ schoolYear: z.number(), academicYear: z.string(), current: z.boolean() })),
  grades: z.array(z.number()),
  classes: z.array(z.object({ id: z.string(), name: z.string(), gradeNo: z.number() })),
  teachers: z.array(z.object({ id: z.string(), name: z.string() })),
});
const caseTrainingRowSchema = z.object({ id: z.string(), name: z.string(), startDate: z.string(), endDate: z.string() });
export const caseRowSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  studentName: z.string(),
  regNo: z.string(),
  className: z.string(),
  kind: z.enum(WARNING_KINDS),
  academicYear: z.string(),
  detail: z.record(z.string(), z.unknown()),
  status: z.enum(CASE_STATUSES),
  assignedTeacherId: z.string().nullable(),
  assignedTeacherName: z.string().nullable(),
  openedByName: z.string().nullable(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  version: z.number().int(),
});
export const caseDetailSchema = caseRowSchema.extend({
  events: z.array(z.object({ id: z.string(), kind: z.enum(CASE_EVENT_KINDS), note: z.string().nullable(), detail: z.string().nullable(), byName: z.string().nullable(), at: z.string() })),
  trainings: z.array(caseTrainingRowSchema),
});
export { caseTrainingRowSchema };
