import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudentHistoryRow, StudentView } from '@/domain/data-center/types';
import { AppProvider } from '@/app/provider';
import { filtersAtom } from '@/features/data-center/atoms';
import { StudentDetail } from '@/features/data-center/components/student-detail';
import { store, uinfoAtom } from '@/lib/store';
import { fakeApi, k12UInfo, resetApp } from '../../app/fake-api';

vi.mock('@/components/chart/echarts-react', () => ({ default: () => <div data-testid="echarts" /> }));

const STUDENT = '0f3a3c0e-2222-4a1a-8a1a-000000000001';

function entry(planId: string, planName: string, gradeNo: number, className: string, bmi: number, total: number): StudentHistoryRow {
  return {
    resultId: `r-${planId}`,
    planId,
    planName,
    schoolYear: 2026,
    academicYear: '2026-2027',
    semesterCode: 13,
    planStartDate: '2026-10-08',
    testedOn: '2026-10-20',
    gradeNo,
    classId: 'c1',
    className,
    heightCm: 160,
    weightKg: 50,
    items: { bmi: { raw: bmi, score: 100, level: 'normal', bonus: null }, run50m: { raw: 8.4, score: 80, level: 'good', bonus: null } },
    standardScore: total,
    bonus: 0,
    total,
    level: 'good',
    complete: true,
  };
}

const view: StudentView = {
  student: { id: STUDENT, name: '王小明', regNo: 'G001', studentNo: null, gender: 'male', orgId: 'o1', orgName: '第一中学', classId: 'c1', className: '八年级1班', gradeNo: 8 },
  history: [entry('p1', '第一次测试', 8, '八年级1班', 19.5, 90.2), entry('p2', '第二次测试', 8, '八年级1班', 20.1, 74.7)],
  classAverage: null,
  asOf: '2026-11-20T02:30:00.000Z',
};

describe('student history of the data centre', () => {
  beforeEach(() => {
    resetApp();
    store.set(uinfoAtom, k12UInfo({ currentTypePath: '/k12' }));
    store.set(filtersAtom, {});
  });

  it('shows each result’s BMI and links its report to that plan', async () => {
    fakeApi({ [`GET /api/busi/web/k12/dataCenter/student/${STUDENT}`]: () => ({ data: view }) });
    const router = createMemoryRouter([{ path: '/k12/dataCenter/student/detail/:id', element: <StudentDetail studentId={STUDENT} /> }], {
      initialEntries: [`/k12/dataCenter/student/detail/${STUDENT}`],
    });
    render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    const table = within(await screen.findByTestId('student-history', {}, { timeout: 15_000 }));
    expect(table.getByRole('columnheader', { name: 'BMI' })).toBeInTheDocument();
    const first = table.getByText('第一次测试').closest('tr')!;
    expect(first).toHaveTextContent('19.5');
    expect(within(first).getByTestId('history-report')).toHaveAttribute('href', expect.stringContaining('planId=p1'));
    const second = table.getByText('第二次测试').closest('tr')!;
    expect(second).toHaveTextContent('20.1');
    expect(within(second).getByTestId('history-report')).toHaveAttribute('href', expect.stringContaining('planId=p2'));
  }, 40_000);
});
