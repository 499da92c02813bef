import type { PlanDetail, PlanFormOptions } from '@/domain/test-plans/types';

export const YEAR_ID = '11111111-1111-4111-8111-111111111111';
export const GRADE8_ID = '22222222-2222-4222-8222-222222222222';
export const CLASS_ID = '33333333-3333-4333-8333-333333333333';
export const PLAN_ID = '44444444-4444-4444-8444-444444444444';

/** What …/testManage/options answers for a K12 school with one grade and two classes. */
export function planOptions(): PlanFormOptions {
  return {
    orgId: 'o1',
    orgType: 21,
    scopeTypes: ['grade', 'class'],
    schoolYears: [
      {
        id: YEAR_ID,
        academicYear: '2026-2027',
        current: true,
        semesters: [
          { code: 13, startDate: '2026-09-01', endDate: '2027-01-22', current: true },
          { code: 11, startDate: '2027-02-23', endDate: '2027-07-03', current: false },
        ],
      },
    ],
    grades: [{ id: GRADE8_ID, gradeNo: 8, stage: 'junior', enrolYear: 2025 }],
    classes: [
      { id: CLASS_ID, name: '八年级2班', gradeId: GRADE8_ID, gradeNo: 8, collegeId: null },
      { id: '55555555-5555-4555-8555-555555555555', name: '八年级3班', gradeId: GRADE8_ID, gradeNo: 8, collegeId: null },
    ],
    colleges: [],
    standardVersions: ['2014'],
    defaultStandardVersion: '2014',
    itemsByVersion: {},
    conversionTables: [],
  };
}

/** A plan in progress, for the detail screen. */
export function planDetail(overrides: Partial<PlanDetail> = {}): PlanDetail {
  return {
    id: PLAN_ID,
    orgId: 'o1',
    orgName: '第一中学',
    name: '秋季体测',
    schoolYearId: YEAR_ID,
    academicYear: '2026-2027',
    semesterCode: 13,
    startDate: '2026-09-01',
    endDate: '2027-01-22',
    endedAt: null,
    status: 'inProgress',
    scopeType: 'class',
    standardVersion: '2014',
    feeAmount: null,
    feePrecision: 2,
    feeRounding: 'round',
    createdAt: '2026-11-01T00:00:00.000Z',
    deletedAt: null,
    purgeAt: null,
    scope: [{ id: CLASS_ID, name: '八年级2班', gradeNo: 8 }],
    items: [{ gradeNo: 8, items: ['bmi', 'vitalCapacity', 'run50m'] }],
    counts: { students: 40, tested: 0, complete: 0 },
    runningJob: null,
    editable: true,
    conversion: null,
    ...overrides,
  };
}

/** Permission codes of a K12 PE teacher on the test screens. */
export const TEACHER_PERMISSIONS = [
  'k12:test:testManage:view',
  'k12:test:testManage:add',
  'k12:test:testManage:edit',
  'k12:test:testManage:detail',
  'k12:test:testManage:end',
  'k12:test:testManage:import',
  'k12:test:scoreSearch:view',
  'k12:test:scoreSearch:export',
];
