import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoadReport, LoadRow } from '@/domain/lesson-load/report';
import { lessonLoad, type MinuteRow } from '@/domain/lesson-load/summary';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';
import { loadEveryChartPart } from '../../../support/chart-parts';

// The charts' ECharts parts registered before, so a chart hands its option on in the render the test reads.
beforeAll(loadEveryChartPart);

// ECharts cannot draw in jsdom: the chart shows its option, which the test reads.
vi.mock('@/components/chart/echarts-react', () => ({ default: ({ option }: { option: unknown }) => <div data-testid="echarts" data-option={JSON.stringify(option)} /> }));

const API = '/api/busi/web/k12/class/load';
const VIEW = 'k12:class:load:view';
const DETAIL = 'k12:class:load:detail';
const PRINT = 'k12:class:load:print';
const START = Date.UTC(2026, 9, 12, 1, 0);

/** A 30-minute lesson: 张三 at 150 through the main part, 李四 at 130 (below the band). */
function report(): LoadReport {
  const rows: MinuteRow[] = [];
  for (const [id, main] of [
    ['s1', 150],
    ['s2', 130],
  ] as const) {
    for (let m = 0; m < 30; m++) {
      const bpm = m < 8 ? 100 : m < 25 ? main : 100;
      rows.push({ studentId: id, minute: START + m * 60_000, samples: 60, bpmSum: bpm * 60, bpmMin: bpm, bpmMax: bpm, zones: { rest: bpm < 114 ? 60 : 0, moderate: bpm >= 114 && bpm < 145 ? 60 : 0, target: bpm >= 145 ? 60 : 0, high: 0, danger: 0 }, active: bpm >= 120 ? 60 : 0 });
    }
  }
  const load = lessonLoad(rows, START, START + 30 * 60_000, START + 40 * 60_000);
  const lesson: LoadRow = {
    id: 'l1', className: '七年级（3）班·足球特色与体育健康融合实验班', teacherName: '周敏', startedAt: new Date(START).toISOString(), endedAt: new Date(START + 30 * 60_000).toISOString(),
    inProgress: false, minutes: 30, studentCount: 2, mainMeanBpm: load.mainMeanBpm, groupDensity: load.groupDensity, individualDensity: load.individualDensity,
    targetShare: load.targetShare, meetsTargets: load.meetsTargets, targets: load.targets,
  };
  const curveOf = (id: string) => lessonLoad(rows.filter((r) => r.studentId === id), START, START + 30 * 60_000, 0).curve.map((c) => ({ minute: c.minute, meanBpm: c.meanBpm }));
  return { lesson, load, students: [{ studentId: 's1', name: '张三', regNo: 'G1', curve: curveOf('s1') }, { studentId: 's2', name: '李四', regNo: 'G2', curve: curveOf('s2') }] };
}

beforeEach(() => resetApp());

describe('lesson load report', () => {
  it('shows the figures against the targets, which target was missed, and the student below the band', async () => {
    const r = report();
    renderScreen('k12.class.load.lesson', { held: [VIEW, DETAIL], params: { lessonId: 'l1' }, api: { [`GET ${API}/l1`]: () => ({ data: r }) } });
    const group = await screen.findByTestId('load-group-density', {}, { timeout: 15_000 });
    expect(group).toHaveTextContent('56.7%');
    expect(group).toHaveTextContent('未达标');
    expect(screen.getByTestId('load-main-mean')).toHaveTextContent('140');
    expect(screen.getByTestId('load-main-mean')).toHaveTextContent('达标');
    expect(screen.getByText('群体练习密度 ≥ 75%')).toBeInTheDocument();
    expect(screen.getByTestId('load-recovery')).toHaveTextContent('40');
    expect(within(screen.getByTestId('load-below-above')).getByText(/李四（130）/)).toBeInTheDocument();
    const table = screen.getByTestId('load-students');
    expect(within(table).getByRole('row', { name: /李四/ })).toHaveTextContent('偏低');
    // The class curve marks the main part (minutes 8–25) and the 140–160 band.
    const option = JSON.parse(screen.getAllByTestId('echarts')[0].dataset.option!) as { series: { data: [number, number][]; markArea: { data: [Record<string, number>, Record<string, number>][] } }[] };
    expect(option.series[0].data).toHaveLength(30);
    expect(option.series[0].markArea.data.map(([a, b]) => [a.xAxis ?? a.yAxis, b.xAxis ?? b.yAxis])).toEqual([
      [8, 25],
      [140, 160],
    ]);
    // The density's definition is cited from the rules.
    expect(screen.getByTestId('load-density-help')).toHaveTextContent('docs/product-rules.md#lesson-load');
    // Print and export need their buttons.
    expect(screen.queryByTestId('load-print')).toBeNull();
    expect(screen.queryByTestId('load-export')).toBeNull();
  });

  it('offers print with the print button, and lists every student as a small chart', async () => {
    renderScreen('k12.class.load.lesson', { held: [VIEW, DETAIL, PRINT], params: { lessonId: 'l1' }, api: { [`GET ${API}/l1`]: () => ({ data: report() }) } });
    expect(await screen.findByTestId('load-print', {}, { timeout: 15_000 })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByTestId('load-small-multiples'));
    expect(await screen.findByRole('img', { name: /张三: 150/ })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /李四: 130/ })).toBeInTheDocument();
  });

  it('lists lessons with their verdict, the missed target named, and a lesson in progress unjudged', async () => {
    const r = report();
    const live: LoadRow = { ...r.lesson, id: 'l2', inProgress: true, endedAt: null, meetsTargets: true, targets: { groupDensity: true, individualDensity: true, meanBpm: true } };
    renderScreen('k12.class.load', {
      held: [VIEW, DETAIL],
      api: {
        [`GET ${API}/options`]: () => ({ data: { classes: [], teachers: [] } }),
        [`GET ${API}/page`]: () => ({ data: { records: [live, r.lesson], total: 2, current: 1, size: 10 } }),
      },
    });
    const rows = await screen.findAllByRole('row', { name: /七年级（3）班/ }, { timeout: 15_000 });
    expect(rows[0]).toHaveTextContent('进行中');
    expect(rows[1]).toHaveTextContent('未达标');
    expect(rows[1]).toHaveTextContent('群体练习密度 ≥ 75%');
    expect(rows[1]).toHaveTextContent('56.7%');
    expect(screen.getByTestId('load-summary-link')).toHaveAttribute('href', '/k12/class/load/summary');
  });
});
