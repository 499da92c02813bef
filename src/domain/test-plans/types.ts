import { enumTable } from '../presentation';
import type { ItemKey } from '../physique/standard';
import type { FeeRounding } from './fee';
import type { PlanScopeType } from './schemas';
import type { PlanStatus } from './status';

/** A row of the test-plan list (docs/product-rules.md#test-plans, organizeTest/testManage). */
export interface PlanRow {
  id: string;
  /** The school the plan belongs to (the admin family lists several schools). */
  orgId: string;
  orgName: string;
  name: string;
  schoolYearId: string;
  academicYear: string;
  semesterCode: number;
  startDate: string;
  endDate: string;
  /** ISO instant of an early end, or null. */
  endedAt: string | null;
  status: PlanStatus;
  scopeType: PlanScopeType;
  standardVersion: string;
  feeAmount: number | null;
  feePrecision: number;
  feeRounding: FeeRounding;
  createdAt: string;
  /** In the recycle bin since (ISO instant), and purged for good at; null for live plans. */
  deletedAt: string | null;
  purgeAt: string | null;
}

/** A grade's tested items in a plan. */
export interface PlanGradeItems {
  gradeNo: number;
  items: ItemKey[];
}

/** One scope entry with its display name (grade number for grades, class or college name otherwise). */
export interface PlanScopeEntry {
  id: string;
  name: string;
  gradeNo: number | null;
}

/** Counts of a plan: students in scope, with any result, with a complete result. */
export interface PlanCounts {
  students: number;
  tested: number;
  complete: number;
}

/** The plan detail (check/{id}): the row, its scope with names, items per grade, counts and any running job. */
export interface PlanDetail extends PlanRow {
  scope: PlanScopeEntry[];
  items: PlanGradeItems[];
  counts: PlanCounts;
  /** Import or sync running on the plan now (docs/product-rules.md#plan-states), or null. */
  runningJob: { kind: PlanJobKind; startedAt: string } | null;
  /** Whether the plan may be edited now (not ended). */
  editable: boolean;
}

/** Result status of a student in a plan: no result, some items missing, every item of the grade present. */
export const SIGN_UP_STATUSES = ['notTested', 'incomplete', 'complete'] as const;
export type SignUpStatus = (typeof SIGN_UP_STATUSES)[number];
export const SIGN_UP_STATUS_TABLE = enumTable(SIGN_UP_STATUSES, (s) => `testPlans:signUpStatus.${s}`, { notTested: 'plain', incomplete: 'warning', complete: 'success' });

/** A row of the sign-up list: a student in the plan's scope and their result status. */
export interface SignUpRow {
  studentId: string;
  name: string;
  regNo: string;
  studentNo: string | null;
  gender: 'male' | 'female';
  classId: string;
  className: string;
  gradeNo: number;
  status: SignUpStatus;
  /** Total score (null until complete), level and whether the result was set invalid. */
  total: number | null;
  level: string | null;
  invalid: boolean;
}

/** Completion of one class in a plan. */
export interface ClassCompletionRow {
  classId: string;
  className: string;
  gradeNo: number;
  students: number;
  tested: number;
  complete: number;
  /** complete ÷ students, 0–1 rounded to 4 decimals; 0 for an empty class. */
  rate: number;
}

export type PlanJobKind = 'import' | 'sync';
export type PlanJobStatus = 'running' | 'done' | 'failed';

/** An import or sync of a plan (docs/product-rules.md#plan-states). */
export interface PlanJob {
  id: string;
  orgId: string;
  planId: string;
  kind: PlanJobKind;
  status: PlanJobStatus;
  fileName: string | null;
  successCount: number | null;
  failureCount: number | null;
  error: string | null;
  startedBy: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

/** A school an admin (management organisation) may plan for. */
export interface PlanSchoolOption {
  id: string;
  name: string;
  type: number;
}

/** What the plan form offers for one school: school years, grades, classes, colleges and default items. */
export interface PlanFormOptions {
  orgId: string;
  orgType: number;
  scopeTypes: PlanScopeType[];
  schoolYears: { id: string; academicYear: string; current: boolean; semesters: { code: number; startDate: string; endDate: string; current: boolean }[] }[];
  grades: { id: string; gradeNo: number; stage: string; enrolYear: number }[];
  classes: { id: string; name: string; gradeId: string; gradeNo: number; collegeId: string | null }[];
  colleges: { id: string; name: string; code: string }[];
  standardVersions: string[];
  defaultStandardVersion: string;
  /** Items each grade may test under each standard version (the default selection is all of them). */
  itemsByVersion: Record<string, PlanGradeItems[]>;
}
