import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClassListView, DataCenterOptions, GradeView, Indicators, SchoolView, UnitRow } from '@/domain/data-center/types';
import { AppProvider } from '@/app/provider';
import { filtersAtom } from '@/features/data-center/atoms';
import { CollegeDashboard } from '@/features/data-center/components/college-dashboard';
import { SchoolDashboard } from '@/features/data-center/components/school-dashboard';
import { store, uinfoAtom } from '@/lib/store';
import { fakeApi, k12UInfo, resetApp } from '../../app/fake-api';

// ECharts needs a real canvas; these tests drill through tables and links.
vi.mock('@/components/chart/echarts-react', () => ({ default: () => <div data-testid="echarts" /> }));

/** The university family (gx): school → year or all colleges → one college → class (docs/product-rules.md#data-centre, college equivalents). */
const API = '/api/busi/web/gx/dataCenter';
// Filter ids are uuids (the URL drops anything else).
const C1 = '0f3a3c0e-1111-4a1a-8a1a-000000000001';
const C2 = '0f3a3c0e-1111-4a1a-8a1a-000000000002';

function indicators(over: Partial<Indicators> = {}): Indicators {
  return {
    students: 400,
    tested: 360,
    assessed: 350,
    participationRate: 0.9,
    levels: { excellent: 50, good: 120, pass: 140, fail: 40 },
    levelRates: { excellent: 0.1429, good: 0.3429, pass: 0.4, fail: 0.1143 },
    excellentRate: 0.1429,
    goodRate: 0.4857,
    passRate: 0.8857,
    meanTotal: 74.2,
    bmi: { normal: 250, lowWeight: 30, overweight: 50, obese: 30 },
    ...over,
  };
}
const items = { run50m: { n: 350, meanScore: 72.5, excellentRate: 0.15, failRate: 0.1 } };
const period = { schoolYear: 2026, academicYear: '2026-2027', semesterCode: 13, planId: null, planName: null };
const scope = { orgId: 'u1', orgName: '江苏体育科技大学', schools: 1 };

function unit(id: string, name: string, gradeNo: number | null, meanTotal: number, rank: number): UnitRow {
  const i = indicators({ meanTotal });
  return { id, name, orgId: 'u1', orgName: scope.orgName, gradeNo, tested: i.tested, assessed: i.assessed, meanTotal, excellentRate: i.excellentRate, goodRate: i.goodRate, passRate: i.passRate, rank, levels: i.levels, items };
}

const schoolView: SchoolView = {
  scope,
  period,
  filters: { schoolYear: 2026 },
  asOf: '2026-11-20T02:30:00.000Z',
  overview: indicators(),
  items,
  byGrade: [13, 14, 15, 16].map((gradeNo) => ({ gradeNo, indicators: indicators(), items })),
  byGender: [],
  trend: [],
  weakestItems: [],
  ranking: { unit: 'class', rows: [unit('k1', '体教2601班', 13, 80, 1)] },
};

const collegeList: ClassListView = {
  scope,
  period,
  filters: { schoolYear: 2026 },
  asOf: '2026-11-20T02:30:00.000Z',
  rows: [unit(C1, '体育学院', null, 78.1, 1), unit(C2, '信息学院', null, 71.4, 2)],
};

function collegeView(collegeId: string): GradeView {
  return {
    scope,
    period,
    filters: { schoolYear: 2026, collegeId },
    asOf: '2026-11-20T02:30:00.000Z',
    gradeNo: null,
    overview: indicators(),
    items,
    byGender: [],
    trend: [],
    weakestItems: [],
    units: { unit: 'class', rows: [unit('k1', '体教2601班', 13, 80, 1), unit('k2', '体教2501班', 14, 76, 2)] },
    distributions: [],
  };
}

const options: DataCenterOptions = {
  schoolYears: [{ schoolYear: 2026, academicYear: '2026-2027' }],
  plans: [],
  grades: [13, 14, 15, 16],
  classes: [],
  schools: [],
  colleges: [
    { id: C1, name: '体育学院' },
    { id: C2, name: '信息学院' },
  ],
  majors: [],
};

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/gx/dataCenter/school', element: <SchoolDashboard /> },
      { path: '/gx/dataCenter/college', element: <CollegeDashboard /> },
      { path: '/gx/dataCenter/class/detail/:id', element: <p data-testid="class-view" /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe('university data centre drill path', () => {
  beforeEach(() => {
    resetApp();
    store.set(uinfoAtom, k12UInfo({ currentTypePath: '/gx' }));
    store.set(filtersAtom, {});
  });

  it('a year of study on the school view opens its colleges side by side; the compare link all of them', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      [`GET ${API}/school`]: () => ({ data: schoolView }),
      [`GET ${API}/college`]: () => ({ data: collegeList }),
      [`GET ${API}/filters`]: () => ({ data: options }),
    });
    const router = renderAt('/gx/dataCenter/school?schoolYear=2026');
    const heat = await screen.findByTestId('item-heat-table');
    expect(screen.getByTestId('chart-levels-by-grade')).toHaveTextContent('点击年级可查看该年级各学院的数据');
    await user.click(within(heat).getByRole('rowheader', { name: '大二' }));
    expect(router.state.location.pathname).toBe('/gx/dataCenter/college');
    expect(router.state.location.search).toBe('?schoolYear=2026&gradeNo=14');
    expect(await screen.findByTestId('dc-college-list')).toBeInTheDocument();
    await screen.findByTestId('items-by-college');
    expect(api.find(`GET ${API}/college`).at(-1)?.config.params).toEqual({ schoolYear: '2026', gradeNo: '14' });

    await router.navigate(-1);
    await user.click(await screen.findByTestId('to-colleges'));
    expect(router.state.location.search).toBe('?schoolYear=2026');
    expect(within(await screen.findByTestId('ranking-table')).getByText('学院')).toBeInTheDocument();
  });

  it('a college opens its own page (its classes side by side) and a class its class view', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      [`GET ${API}/college`]: () => ({ data: collegeList }),
      [`GET ${API}/grade`]: (_b, config) => ({ data: collegeView((config.params as { collegeId: string }).collegeId) }),
      [`GET ${API}/filters`]: () => ({ data: options }),
    });
    const router = renderAt('/gx/dataCenter/college?schoolYear=2026');
    const table = await screen.findByTestId('ranking-table');
    await user.click(within(table).getByText('信息学院'));
    expect(router.state.location.search).toBe(`?schoolYear=2026&collegeId=${C2}`);

    expect(await screen.findByTestId('dc-college')).toBeInTheDocument();
    // One request for the college's figures, with every year of study (no grade).
    const calls = api.find(`GET ${API}/grade`);
    expect(calls).toHaveLength(1);
    expect(calls[0].config.params).toEqual({ schoolYear: '2026', collegeId: C2 });
    expect(await screen.findByRole('heading', { name: '信息学院' })).toBeInTheDocument();
    const crumbs = screen.getByTestId('drill-breadcrumbs');
    expect(within(crumbs).getByRole('link', { name: '全部学院' })).toHaveAttribute('href', '/gx/dataCenter/college?schoolYear=2026');
    expect(within(crumbs).getByRole('link', { name: '江苏体育科技大学' })).toHaveAttribute('href', '/gx/dataCenter/school?schoolYear=2026');

    await user.click(within(await screen.findByTestId('ranking-table')).getByText('体教2501班'));
    expect(router.state.location.pathname).toBe('/gx/dataCenter/class/detail/k2');
    expect(router.state.location.search).toBe('?schoolYear=2026');
  });
});
