import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EChartsReactProps } from 'echarts-for-react/esm/types';
import type { DataCenterOptions, SchoolView } from '@/domain/data-center/types';
import { AppProvider } from '@/app/provider';
import { filtersAtom } from '@/features/data-center/atoms';
import { SchoolDashboard } from '@/features/data-center/components/school-dashboard';
import { SCHOOL_VIEW_CHARTS } from '@/features/data-center/screen-data';
import { chartParts } from '@/lib/echarts';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../../app/fake-api';
import { loadEveryChartPart } from '../../../support/chart-parts';
import { indicators } from './indicators';

// The charts' ECharts parts registered before, so a chart hands its option on in the render the test reads.
beforeAll(loadEveryChartPart);

// ECharts needs a real canvas: record the options handed to it instead.
const charts: EChartsReactProps[] = [];
vi.mock('@/components/chart/echarts-react', () => ({
  default: (props: EChartsReactProps) => {
    charts.push(props);
    return <div data-testid="echarts" />;
  },
}));

const API = '/api/busi/web/k12/dataCenter';

function schoolView(gender?: 'male' | 'female'): SchoolView {
  const items = { run50m: { n: 170, meanScore: 75.5, excellentRate: 0.2, failRate: 0.1 }, sitAndReach: { n: 170, meanScore: 71.2, excellentRate: 0.1, failRate: 0.2 } };
  const overview = indicators(gender === 'female' ? { tested: 88, meanTotal: 80.1 } : {});
  return {
    scope: { orgId: 'o1', orgName: '第一中学', schools: 1 },
    period: { schoolYear: 2025, academicYear: '2025-2026', semesterCode: 13, planId: null, planName: null },
    filters: { schoolYear: 2025, gender },
    asOf: '2026-11-20T02:30:00.000Z',
    overview,
    items,
    byGrade: [
      { gradeNo: 7, indicators: indicators(), items },
      { gradeNo: 8, indicators: indicators({ meanTotal: 76 }), items },
    ],
    byGender: [
      { gender: 'male', indicators: indicators(), items },
      { gender: 'female', indicators: indicators(), items },
    ],
    trend: [
      { schoolYear: 2024, academicYear: '2024-2025', indicators: indicators({ meanTotal: 77 }), items },
      { schoolYear: 2025, academicYear: '2025-2026', indicators: overview, items },
    ],
    weakestItems: [{ item: 'sitAndReach', n: 170, meanScore: 71.2, failRate: 0.2 }],
    ranking: {
      unit: 'class',
      rows: [
        { id: 'c1', name: '初一(1)班', orgId: 'o1', orgName: '第一中学', gradeNo: 7, tested: 40, assessed: 38, meanTotal: 81.2, excellentRate: 0.2, goodRate: 0.6, passRate: 0.95, rank: 1 },
        { id: 'c2', name: '初一(2)班', orgId: 'o1', orgName: '第一中学', gradeNo: 7, tested: 40, assessed: 39, meanTotal: 77.9, excellentRate: 0.1, goodRate: 0.5, passRate: 0.9, rank: 2 },
      ],
    },
  };
}

const options: DataCenterOptions = {
  schoolYears: [
    { schoolYear: 2025, academicYear: '2025-2026' },
    { schoolYear: 2024, academicYear: '2024-2025' },
  ],
  plans: [],
  grades: [7, 8],
  classes: [],
  schools: [],
  colleges: [],
  majors: [],
};

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/k12/dataCenter/school', element: <SchoolDashboard /> },
      { path: '/k12/dataCenter/grade', element: <p data-testid="grade-view" /> },
      { path: '/k12/dataCenter/class/detail/:id', element: <p data-testid="class-view" /> },
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

describe('school dashboard', () => {
  beforeEach(() => {
    resetApp();
    store.set(filtersAtom, {});
    charts.length = 0;
  });
  afterEach(() => vi.restoreAllMocks());

  it('loads the whole view in one request and draws its figures', async () => {
    const api = fakeApi({
      [`GET ${API}/school`]: (_b, config) => ({ data: schoolView((config.params as { gender?: 'male' | 'female' }).gender) }),
      [`GET ${API}/filters`]: () => ({ data: options }),
    });
    renderAt('/k12/dataCenter/school?schoolYear=2025');
    expect(await screen.findByTestId('kpi-cards')).toBeInTheDocument();
    expect(screen.getByTestId('kpi-tested')).toHaveTextContent('180');
    expect(screen.getByTestId('kpi-participation')).toHaveTextContent('90.0%');
    expect(screen.getByTestId('kpi-meanTotal')).toHaveTextContent('78.4');
    const calls = api.find(`GET ${API}/school`);
    expect(calls).toHaveLength(1);
    expect(calls[0].config.params).toEqual({ schoolYear: '2025' });
    // Every chart of the page was drawn from that one answer.
    expect(charts.length).toBeGreaterThanOrEqual(6);
    // The screen's data preload starts loading the ECharts parts these charts draw, and no others
    // (docs/decisions/012-lean-first-screen.md).
    const drawn = new Set(charts.flatMap((c) => chartParts(c.option)));
    expect([...drawn].sort()).toEqual([...SCHOOL_VIEW_CHARTS].sort());
  });

  it('a filter change updates the URL and every chart with one new request', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      [`GET ${API}/school`]: (_b, config) => ({ data: schoolView((config.params as { gender?: 'male' | 'female' }).gender) }),
      [`GET ${API}/filters`]: () => ({ data: options }),
    });
    const router = renderAt('/k12/dataCenter/school?schoolYear=2025');
    await screen.findByTestId('kpi-cards');
    const drawnBefore = charts.length;

    await user.click(within(screen.getByTestId('filter-gender')).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: '女' }));

    await waitFor(() => expect(screen.getByTestId('kpi-tested')).toHaveTextContent('88'));
    expect(new URLSearchParams(router.state.location.search).get('gender')).toBe('female');
    const calls = api.find(`GET ${API}/school`);
    expect(calls).toHaveLength(2);
    expect(calls[1].config.params).toEqual({ schoolYear: '2025', gender: 'female' });
    expect(charts.length).toBeGreaterThan(drawnBefore);
  });

  it('drills down: a grade row opens the grade view and a ranked class its class view, keeping the period', async () => {
    const user = userEvent.setup();
    fakeApi({
      [`GET ${API}/school`]: () => ({ data: schoolView() }),
      [`GET ${API}/filters`]: () => ({ data: options }),
    });
    const router = renderAt('/k12/dataCenter/school?schoolYear=2025&gender=male');
    const heat = await screen.findByTestId('item-heat-table');
    await user.click(within(heat).getByRole('rowheader', { name: '八年级' }));
    expect(router.state.location.pathname).toBe('/k12/dataCenter/grade');
    // The period travels; the gender (not a period filter) does not.
    expect(router.state.location.search).toBe('?schoolYear=2025&gradeNo=8');

    await router.navigate(-1);
    const table = await screen.findByTestId('ranking-table');
    await user.click(within(table).getByText('初一(2)班'));
    expect(router.state.location.pathname).toBe('/k12/dataCenter/class/detail/c2');
    expect(router.state.location.search).toBe('?schoolYear=2025');
  });
});

describe('wall links on the school dashboard', () => {
  beforeEach(() => {
    resetApp();
    store.set(filtersAtom, {});
  });

  it('are offered only to roles with the screen-link permission', async () => {
    const { DataCenterSchoolPage } = await import('@/app/routes/data-center/school');
    const { permissionsAtom } = await import('@/lib/permissions');
    fakeApi({
      [`GET ${API}/school`]: () => ({ data: schoolView() }),
      [`GET ${API}/filters`]: () => ({ data: options }),
    });
    const router = createMemoryRouter([{ path: '/k12/dataCenter/school', element: <DataCenterSchoolPage /> }], { initialEntries: ['/k12/dataCenter/school'] });
    store.set(permissionsAtom, new Set(['k12:dataCenter:school:view']));
    const view = render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    await screen.findByTestId('kpi-cards');
    expect(screen.queryByTestId('screen-links-open')).toBeNull();
    view.unmount();

    // The code the server checks, looked up in the catalogue the same way.
    const { dataCenterPermissions } = await import('@/features/data-center/family');
    store.set(permissionsAtom, new Set(['k12:dataCenter:school:view', dataCenterPermissions('k12').screenLink]));
    render(
      <AppProvider>
        <RouterProvider router={createMemoryRouter([{ path: '/k12/dataCenter/school', element: <DataCenterSchoolPage /> }], { initialEntries: ['/k12/dataCenter/school'] })} />
      </AppProvider>,
    );
    expect(await screen.findByTestId('screen-links-open')).toBeInTheDocument();
  });
});
