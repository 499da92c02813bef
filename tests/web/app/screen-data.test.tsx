import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuNode } from '@/domain/auth/types';
import type { SchoolView } from '@/domain/data-center/types';
import type { ScreenModule } from '@/app/routes/lazy-screen';
import { filtersAtom } from '@/features/data-center/atoms';
import { SCHOOL_VIEW_CHARTS } from '@/features/data-center/screen-data';
import { getToasts } from '@/lib/toast';
import { saveToken, saveUInfo, store } from '@/lib/store';
import { fakeApi, k12UInfo, renderApp, resetApp } from './fake-api';
import { indicators } from '../features/data-center/indicators';

// The school view's chunk arrives when a test says so: its data call must not wait for it.
const chunk = vi.hoisted(() => ({ release: (): void => undefined }));
vi.mock('@/app/routes/screens', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/app/routes/screens')>();
  const held = () =>
    new Promise<ScreenModule>((resolve) => {
      chunk.release = () => void import('@/app/routes/data-center/school').then((m) => resolve({ default: m.DataCenterSchoolPage }));
    });
  return { ...actual, SCREENS: { ...actual.SCREENS, 'dataCenter.school': held } };
});
// ECharts needs a real canvas.
vi.mock('@/components/chart/echarts-react', () => ({ default: () => <div data-testid="echarts" /> }));
// The ECharts parts the school view draws, each recorded as it is requested (src/lib/chart-parts.ts imports them).
const { parts, record } = vi.hoisted(() => {
  const parts: string[] = [];
  return { parts, record: (part: string) => (parts.push(part), {}) };
});
vi.mock('echarts/lib/chart/bar', () => record('bar'));
vi.mock('echarts/lib/chart/line', () => record('line'));
vi.mock('echarts/lib/chart/pie', () => record('pie'));
vi.mock('echarts/lib/component/grid', () => record('grid'));
vi.mock('echarts/lib/component/tooltip', () => record('tooltip'));
vi.mock('echarts/lib/component/legend', () => record('legend'));
vi.mock('echarts/lib/component/title', () => record('title'));

const SCHOOL_VIEW = 'GET /api/busi/web/k12/dataCenter/school';
const FILTERS = 'GET /api/busi/web/k12/dataCenter/filters';
// A university's school view: the same screen and preload, its own route (so its own chunk load, still held).
const GX_SCHOOL_VIEW = 'GET /api/busi/web/gx/dataCenter/school';

const view: SchoolView = {
  scope: { orgId: 'o1', orgName: '第一中学', schools: 1 },
  period: { schoolYear: 2025, academicYear: '2025-2026', semesterCode: 13, planId: null, planName: null },
  filters: { schoolYear: 2025 },
  asOf: '2026-11-20T02:30:00.000Z',
  overview: indicators(),
  items: {},
  byGrade: [{ gradeNo: 7, indicators: indicators(), items: {} }],
  byGender: [],
  trend: [],
  weakestItems: [],
  ranking: { unit: 'class', rows: [] },
};

/** A K12 (or university) teacher whose menu holds the school dashboard (or not). */
function signIn(withDashboard = true, family: 'k12' | 'gx' = 'k12') {
  const uinfo = k12UInfo({ currentTypePath: `/${family}` });
  const classPage = uinfo.menuTree[0].children[0];
  const path = `/${family}/dataCenter/school`;
  const dashboard: MenuNode = { ...classPage, menuId: `${family}.dataCenter.school`, menuPath: path, defaultPath: path };
  if (withDashboard) uinfo.menuTree[0].children.push(dashboard);
  saveToken({ access_token: 'tok-1', token_type: 'bearer', expires_in: 7200, refresh_token: 'ref-1' });
  saveUInfo(uinfo);
}

beforeEach(() => {
  resetApp();
  store.set(filtersAtom, {});
});

describe("a screen's data preload (docs/decisions/012-lean-first-screen.md)", () => {
  it("starts the school view's calls with the navigation, before its chunk arrives, and the screen uses them", async () => {
    const api = fakeApi({ [SCHOOL_VIEW]: () => ({ data: view }), [FILTERS]: () => ({ data: { schoolYears: [], plans: [], grades: [], classes: [], schools: [], colleges: [], majors: [] } }) });
    signIn();
    renderApp('/k12/dataCenter/school?schoolYear=2025');
    await waitFor(() => expect(api.find(SCHOOL_VIEW)).toHaveLength(1));
    expect(api.find(SCHOOL_VIEW)[0].config.params).toEqual({ schoolYear: '2025' });
    expect(api.find(FILTERS)).toHaveLength(1);
    // The screen is still loading: the call did not wait for it.
    expect(await screen.findByTestId('screen-loading')).toBeInTheDocument();
    expect(screen.queryByTestId('dc-school')).toBeNull();
    // Nor did the ECharts parts its charts draw: they load beside the calls, not once the charts have their options.
    await waitFor(() => expect([...parts].sort()).toEqual([...SCHOOL_VIEW_CHARTS].sort()));
    expect(screen.queryByTestId('dc-school')).toBeNull();

    chunk.release();
    expect(await screen.findByTestId('kpi-cards', undefined, { timeout: 10_000 })).toBeInTheDocument();
    // Same key: the screen took the answer instead of asking again.
    expect(api.find(SCHOOL_VIEW)).toHaveLength(1);
    expect(api.find(FILTERS)).toHaveLength(1);
  });

  it('shows nothing when the preload fails; the screen asks again and shows its figures', async () => {
    let answers = 0;
    const api = fakeApi({ [GX_SCHOOL_VIEW]: () => (++answers === 1 ? { status: 500, code: '500', msg: '服务器开小差了' } : { data: view }) });
    signIn(true, 'gx');
    renderApp('/gx/dataCenter/school');
    await waitFor(() => expect(api.find(GX_SCHOOL_VIEW)).toHaveLength(1));
    await screen.findByTestId('screen-loading');
    expect(getToasts().map((t) => t.message)).not.toContain('服务器开小差了');

    chunk.release();
    expect(await screen.findByTestId('kpi-cards', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(api.find(GX_SCHOOL_VIEW)).toHaveLength(2);
  });

  it('does not call for a screen the role may not open', async () => {
    const api = fakeApi({ [SCHOOL_VIEW]: () => ({ data: view }) });
    signIn(false);
    renderApp('/k12/dataCenter/school');
    expect(await screen.findByTestId('not-found', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(api.find(SCHOOL_VIEW)).toHaveLength(0);
  });
});
