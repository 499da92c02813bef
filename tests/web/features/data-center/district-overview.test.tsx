import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EChartsReactProps } from 'echarts-for-react/esm/types';
import { ORG_TYPE } from '@/domain/constants';
import type { DataCenterOptions, Indicators } from '@/domain/data-center/types';
import type { DistrictOverview, DistrictSchoolRow } from '@/domain/data-center/district';
import { AppProvider } from '@/app/provider';
import { filtersAtom } from '@/features/data-center/atoms';
import { DistrictOverviewScreen } from '@/features/data-center/components/district-overview';
import { DISTRICT_OVERVIEW_CHARTS } from '@/features/data-center/screen-data';
import { chartParts } from '@/lib/echarts';
import { store, uinfoAtom } from '@/lib/store';
import { fakeApi, k12UInfo, resetApp } from '../../app/fake-api';
import { loadEveryChartPart } from '../../../support/chart-parts';

// The charts' ECharts parts registered before, so a chart hands its option on in the render the test reads.
beforeAll(loadEveryChartPart);

// ECharts needs a real canvas: record the options and handlers handed to it instead.
const charts: EChartsReactProps[] = [];
vi.mock('@/components/chart/echarts-react', () => ({
  default: (props: EChartsReactProps) => {
    charts.push(props);
    return <div data-testid="echarts" />;
  },
}));

const API = '/api/busi/web/admin/dataCenter';
const items = { run50m: { n: 170, meanScore: 75.5, excellentRate: 0.2, failRate: 0.1 }, sitAndReach: { n: 170, meanScore: 61.2, excellentRate: 0.1, failRate: 0.3 } };

function school(orgId: string, name: string, meanTotal: number): DistrictSchoolRow {
  return {
    orgId,
    name,
    type: 21,
    students: 200,
    tested: 180,
    assessed: 170,
    excellentRate: 0.2,
    goodRate: 0.5,
    passRate: 0.9,
    failRate: 0.1,
    meanTotal,
    homeworkStudents: 100,
    homeworkRate: 0.5,
    contestStudents: 20,
    contestRate: 0.1,
    devices: 4,
    devicesOnline: 3,
    levels: { excellent: 34, good: 51, pass: 68, fail: 17 },
    items,
  };
}

const ind = (meanTotal: number): Indicators => ({
  students: null,
  tested: 360,
  assessed: 340,
  participationRate: null,
  levels: { excellent: 68, good: 102, pass: 136, fail: 34 },
  levelRates: { excellent: 0.2, good: 0.3, pass: 0.4, fail: 0.1 },
  excellentRate: 0.2,
  goodRate: 0.5,
  passRate: 0.9,
  meanTotal,
  bmi: { normal: 300, lowWeight: 10, overweight: 20, obese: 10 },
});

function view(): DistrictOverview {
  const schools = [school('o1', '第一中学', 80.1), school('o2', '实验小学', 76.4)];
  const { orgId: _o, name: _n, type: _t, ...total } = school('-', '-', 78.2);
  return {
    scope: { orgId: 'd1', orgName: '示范区教育局', schools: 2 },
    period: { schoolYear: 2025, academicYear: '2025-2026', semesterCode: null, planId: null, planName: null },
    filters: { schoolYear: 2025, gender: 'female' },
    total,
    schools,
    trend: [
      { schoolYear: 2024, academicYear: '2024-2025', indicators: ind(77), items, schools: [{ orgId: 'o1', tested: 170, meanTotal: 79, excellentRate: 0.2, passRate: 0.9 }] },
      {
        schoolYear: 2025,
        academicYear: '2025-2026',
        indicators: ind(78.2),
        items,
        schools: schools.map((s) => ({ orgId: s.orgId, tested: s.tested, meanTotal: s.meanTotal, excellentRate: s.excellentRate, passRate: s.passRate })),
      },
    ],
    weakestItems: [{ item: 'sitAndReach', n: 170, meanScore: 61.2, failRate: 0.3 }],
  };
}

const options: DataCenterOptions = { schoolYears: [{ schoolYear: 2025, academicYear: '2025-2026' }], plans: [], grades: [], classes: [], schools: [], colleges: [], majors: [] };

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/admin/dataCenter/overview', element: <DistrictOverviewScreen /> },
      { path: '/admin/dataCenter/overview/school/:orgId', element: <p data-testid="school-view" /> },
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

/** The recorded chart whose series carry this drill-down id. */
function chartWithId(id: string): EChartsReactProps {
  const found = [...charts].reverse().find((c) => JSON.stringify(c.option.series ?? []).includes(`"id":"${id}"`));
  if (!found) throw new Error(`no chart with ${id}`);
  return found;
}

describe('district overview', () => {
  beforeEach(() => {
    resetApp();
    store.set(uinfoAtom, k12UInfo({ currentTypePath: '/admin', orgType: ORG_TYPE.management }));
    store.set(filtersAtom, {});
    charts.length = 0;
  });
  afterEach(() => vi.restoreAllMocks());

  it("draws the charts from one request and a school's bar, point or row opens its data centre with the same URL filters", async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      [`GET ${API}/overview`]: () => ({ data: view() }),
      [`GET ${API}/filters`]: () => ({ data: options }),
    });
    const router = renderAt('/admin/dataCenter/overview?schoolYear=2025&gender=female');
    expect(await screen.findByTestId('district-chart-schools')).toBeInTheDocument();
    expect(api.find(`GET ${API}/overview`)).toHaveLength(1);
    expect(api.find(`GET ${API}/overview`)[0].config.params).toEqual({ schoolYear: '2025', gender: 'female' });
    for (const id of ['district-chart-levels', 'district-chart-trend', 'district-chart-weakest', 'district-items-by-school', 'district-chart-participation']) {
      expect(screen.getByTestId(id)).toBeInTheDocument();
    }
    // The screen's data preload starts loading the ECharts parts these charts draw (docs/decisions/012-lean-first-screen.md),
    // but the schools' data zoom, drawn only for more schools than fit.
    const drawn = new Set(charts.flatMap((c) => chartParts(c.option)));
    drawn.delete('dataZoom');
    expect([...drawn].sort()).toEqual([...DISTRICT_OVERVIEW_CHARTS].sort());

    // A school's bar in the comparison.
    act(() => chartWithId('o2').onEvents!.click!({ data: { id: 'o2' } }, undefined as never));
    expect(router.state.location.pathname).toBe('/admin/dataCenter/overview/school/o2');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ orgId: 'o2', schoolYear: '2025', gender: 'female' });

    // A school's point in the trend opens that school year.
    await act(() => router.navigate(-1));
    await screen.findByTestId('district-chart-trend');
    act(() => chartWithId('o1@2024').onEvents!.click!({ data: { id: 'o1@2024' } }, undefined as never));
    expect(router.state.location.pathname).toBe('/admin/dataCenter/overview/school/o1');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ orgId: 'o1', schoolYear: '2024', gender: 'female' });

    // A school's row of the item table.
    await act(() => router.navigate(-1));
    const heat = await screen.findByTestId('item-heat-table');
    await user.click(within(heat).getByRole('rowheader', { name: '实验小学' }));
    expect(router.state.location.pathname).toBe('/admin/dataCenter/overview/school/o2');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({ orgId: 'o2', schoolYear: '2025', gender: 'female' });
    // Three views drawn in turn: room for a loaded machine.
  }, 60_000);
});

describe('district charts', () => {
  it("keep a hostile school name as text in the trend's tooltip", async () => {
    const { schoolTrendOption } = await import('@/features/data-center/charts/options');
    const t = ((key: string) => key) as never;
    const colors = { level: { excellent: '#1', good: '#2', pass: '#3', fail: '#4' }, bmi: { normal: '#1', lowWeight: '#2', overweight: '#3', obese: '#4' }, series: ['#1', '#2'], muted: '#9', foreground: '#0' };
    const evil = '<img src=x onerror=alert(1)>';
    const option = schoolTrendOption(t, colors, view().trend, [{ orgId: 'o1', name: evil }]);
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    const html = formatter([{ seriesName: evil, axisValueLabel: '2025-2026', value: 80, marker: '' }]);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
