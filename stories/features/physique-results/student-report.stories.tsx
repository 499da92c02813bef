import type { Meta, StoryObj } from '@storybook/react-vite';
import type { StudentReport } from '@/domain/physique-results/types';
import { StudentReportView } from '@/features/physique-results/components/student-report';

const report: StudentReport = {
  student: {
    id: 's1',
    name: '李子豪',
    regNo: 'G320102201209290752',
    studentNo: null,
    gender: 'male',
    birthDate: '2012-09-29',
    className: '八年级2班',
    orgName: '南京市江宁区实验学校',
  },
  years: [{ schoolYearId: 'y2', academicYear: '2026-2027' }],
  schoolYearId: 'y2',
  academicYear: '2026-2027',
  plans: [{ planId: 'p2', planName: '2026-2027学年第一学期体质健康测试', semesterCode: 13 }],
  result: {
    id: 'r1',
    planId: 'p2',
    planName: '2026-2027学年体质健康测试',
    semesterCode: 13,
    testedOn: '2026-10-18',
    className: '八年级2班',
    gradeNo: 8,
    heightCm: 163.1,
    weightKg: 43.9,
    items: [
      { item: 'bmi', raw: 16.5, score: 100, level: 'normal', bonus: null, weight: 0.15, classAverage: 92.4 },
      { item: 'vitalCapacity', raw: 1833, score: 40, level: 'fail', bonus: null, weight: 0.15, classAverage: 72 },
      { item: 'run50m', raw: 10.1, score: 50, level: 'fail', bonus: null, weight: 0.2, classAverage: 69 },
      { item: 'sitAndReach', raw: 0, score: 62, level: 'pass', bonus: null, weight: 0.1, classAverage: 75.5 },
      { item: 'standingLongJump', raw: 169, score: 50, level: 'fail', bonus: null, weight: 0.1, classAverage: 72 },
      { item: 'pullUp', raw: 16, score: 100, level: 'excellent', bonus: 2, weight: 0.1, classAverage: 69.8 },
      { item: 'run1000m', raw: 294, score: 64, level: 'pass', bonus: null, weight: 0.2, classAverage: 69.8 },
    ],
    standardScore: 65,
    bonus: 2,
    total: 67,
    level: 'pass',
    complete: true,
    missing: [],
    invalid: false,
    classAverageTotal: 74,
  },
  year: null,
  history: [
    { planId: 'p0', planName: '2024-2025学年体质健康测试', academicYear: '2024-2025', semesterCode: 13, startDate: '2024-10-08', testedOn: '2024-10-14', gradeNo: 6, standardScore: 79.2, bonus: 0, total: 79.2, level: 'pass' },
    { planId: 'p1', planName: '2025-2026学年体质健康测试', academicYear: '2025-2026', semesterCode: 13, startDate: '2025-10-08', testedOn: '2025-10-15', gradeNo: 7, standardScore: 65.9, bonus: 0, total: 65.9, level: 'pass' },
    { planId: 'p2', planName: '2026-2027学年体质健康测试', academicYear: '2026-2027', semesterCode: 13, startDate: '2026-10-08', testedOn: '2026-10-16', gradeNo: 8, standardScore: 65, bonus: 2, total: 67, level: 'pass' },
  ],
  improve: ['vitalCapacity', 'run50m', 'standingLongJump'],
  examPoints: null,
};

const meta = {
  title: 'Features/Physique report/Student report',
  component: StudentReportView,
  parameters: { layout: 'padded' },
  args: { report, printedAt: new Date('2026-11-23T08:00:00+08:00') },
} satisfies Meta<typeof StudentReportView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A complete year with history, the class comparison and items to improve. */
export const Complete: Story = {};

/** A result set invalid is still shown, flagged. */
export const Invalid: Story = { args: { report: { ...report, result: { ...report.result!, invalid: true } } } };

/** A year without results. */
export const NoResult: Story = { args: { report: { ...report, result: null, improve: [], history: [] } } };
