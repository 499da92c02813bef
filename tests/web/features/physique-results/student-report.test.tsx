import { render, screen, within } from '@testing-library/react';
import { beforeAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { EChartsReactProps } from 'echarts-for-react/esm/types';
import type { StudentReport } from '@/domain/physique-results/types';
import { i18next } from '@/lib/i18n';
import { StudentReportView } from '@/features/physique-results/components/student-report';
import { loadEveryChartPart } from '../../../support/chart-parts';

// The charts' ECharts parts registered before, so a chart hands its option on in the render the test reads.
beforeAll(loadEveryChartPart);

// ECharts needs a real canvas: the options handed to echarts-for-react are checked instead.
const charts: EChartsReactProps[] = [];
vi.mock('@/components/chart/echarts-react', () => ({
  default: (props: EChartsReactProps) => {
    charts.push(props);
    return <div data-testid="echarts" />;
  },
}));

function report(): StudentReport {
  return {
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
    years: [
      { schoolYearId: 'y2', academicYear: '2026-2027' },
      { schoolYearId: 'y1', academicYear: '2025-2026' },
    ],
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
      standardScore: 65, // not the sum of the rows above: the view shows what the server computed
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
      { planId: 'p1', planName: '2025-2026学年体质健康测试', academicYear: '2025-2026', semesterCode: 13, startDate: '2025-10-08', testedOn: '2025-10-15', gradeNo: 7, standardScore: 70, bonus: 0, total: 70, level: 'pass' },
      { planId: 'p2', planName: '2026-2027学年体质健康测试', academicYear: '2026-2027', semesterCode: 13, startDate: '2026-10-08', testedOn: '2026-10-16', gradeNo: 8, standardScore: 65, bonus: 2, total: 67, level: 'pass' },
    ],
    improve: ['vitalCapacity', 'run50m', 'standingLongJump'],
    examPoints: null,
  };
}

const printedAt = new Date('2026-11-23T08:00:00+08:00');

describe('student physique report (docs/product-rules.md#physique-results: student report)', () => {
  afterEach(async () => {
    charts.length = 0;
    await i18next.changeLanguage('zh_cn');
  });

  it('shows each item with raw value, score, level and bonus, the totals, the charts and the items to improve', () => {
    render(<StudentReportView report={report()} printedAt={printedAt} />);
    expect(screen.getByTestId('report-title')).toHaveTextContent('学生体质健康测试报告');
    expect(screen.getByTestId('report-student')).toHaveTextContent('李子豪');
    expect(screen.getByTestId('report-student')).toHaveTextContent('G320102201209290752');
    expect(screen.getByTestId('report-total')).toHaveTextContent('67');
    expect(screen.getByTestId('report-level')).toHaveTextContent('及格');

    const rows = within(screen.getByTestId('report-items'));
    const run = rows.getByText('1000米跑').closest('tr')!;
    expect(run).toHaveTextContent(`4'54"`);
    expect(run).toHaveTextContent('64');
    const pullUp = rows.getByText('引体向上').closest('tr')!;
    expect(pullUp).toHaveTextContent('+2');
    expect(pullUp).toHaveTextContent('优秀');
    expect(rows.getByText('体重指数（BMI）').closest('tr')).toHaveTextContent('正常');
    expect(screen.getByText('身高 163.1 厘米，体重 43.9 千克')).toBeInTheDocument();

    // Radar: the student's item scores against the class average; trend: totals in plan order.
    const [radar, trend] = charts.map((c) => c.option as { series: { data: unknown }[]; xAxis?: { data: string[] } });
    expect(radar.series[0].data).toEqual([
      expect.objectContaining({ value: [100, 40, 50, 62, 50, 100, 64] }),
      expect.objectContaining({ value: [92.4, 72, 69, 75.5, 72, 69.8, 69.8] }),
    ]);
    expect(trend.series[0].data).toEqual([70, 67]);
    expect(trend.xAxis?.data[0]).toContain('2025-2026');

    const improve = within(screen.getByTestId('report-improve'));
    expect(improve.getByText('肺活量')).toBeInTheDocument();
    expect(improve.getByText(/深呼吸练习/)).toBeInTheDocument();
    expect(screen.getByText(/打印日期 2026年11月23日/)).toBeInTheDocument();
  });

  it('names the plan in the header, the class at test time, and puts the trend on test dates', () => {
    const r = report();
    r.result!.className = '七年级2班';
    r.history[1] = { ...r.history[1], planName: '2026-2027学年第二次测试', startDate: '2026-09-01', testedOn: '2026-11-02' };
    render(<StudentReportView report={r} printedAt={printedAt} />);
    expect(screen.getByTestId('report-plan')).toHaveTextContent('2026-2027学年体质健康测试（秋季学期）');
    expect(screen.getByTestId('report-student')).toHaveTextContent('七年级2班');
    const trend = charts.at(-1)!.option as { xAxis: { data: string[] } };
    expect(trend.xAxis.data[1]).toContain('2026-11-02');
    expect(trend.xAxis.data[1]).not.toContain('09-01');
  });

  it('escapes a hostile plan name in the trend tooltip (its formatter returns HTML)', () => {
    const r = report();
    r.history[1] = { ...r.history[1], planName: '<img src=x onerror=alert(1)>' };
    render(<StudentReportView report={r} printedAt={printedAt} />);
    const trend = charts.at(-1)!.option as { tooltip: { formatter: (p: unknown) => string } };
    const html = trend.tooltip.formatter([{ dataIndex: 1 }]);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html.replaceAll('<br/>', '')).not.toMatch(/<[a-z/!]/i);
  });

  it('flags an invalid result and says when a year has none', () => {
    const invalid = report();
    invalid.result!.invalid = true;
    const { unmount } = render(<StudentReportView report={invalid} printedAt={printedAt} />);
    expect(screen.getByText('该成绩已被设为无效，不计入排名和统计。')).toBeInTheDocument();
    unmount();
    render(<StudentReportView report={{ ...report(), result: null, improve: [] }} printedAt={printedAt} />);
    expect(screen.getByText('该学年暂无体测成绩')).toBeInTheDocument();
    expect(screen.queryByTestId('report-items')).not.toBeInTheDocument();
  });

  it("shows the school year's result: both totals after a re-test, 免测 for an exempt year", () => {
    const retested = { ...report(), year: { source: 'retest' as const, total: 60, level: 'pass' as const, planTotal: 48, retestTotal: 71 } };
    const { unmount } = render(<StudentReportView report={retested} printedAt={printedAt} />);
    expect(screen.getByTestId('report-year-total')).toHaveTextContent('60及格');
    expect(screen.getByTestId('report-year-plan')).toHaveTextContent('48');
    expect(screen.getByTestId('report-year-retest')).toHaveTextContent('71');
    expect(screen.getByText('补测', { selector: 'div' })).toBeInTheDocument();
    unmount();
    const exempt = { ...report(), result: null, improve: [], year: { source: 'exempt' as const, total: null, level: null, planTotal: null, retestTotal: null } };
    render(<StudentReportView report={exempt} printedAt={printedAt} />);
    expect(screen.getByTestId('report-year-total')).toHaveTextContent('免测');
    expect(screen.queryByText('该学年暂无体测成绩')).not.toBeInTheDocument();
    expect(screen.queryByTestId('report-year-retest')).not.toBeInTheDocument();
  });

  it('prints in English and Traditional Chinese too', async () => {
    await i18next.changeLanguage('en_us');
    const { unmount } = render(<StudentReportView report={report()} printedAt={printedAt} />);
    expect(screen.getByTestId('report-title')).toHaveTextContent('Student Physical Fitness Test Report');
    expect(screen.getByTestId('report-level')).toHaveTextContent('Pass');
    expect(screen.getByText('Items to improve')).toBeInTheDocument();
    unmount();
    await i18next.changeLanguage('zh_tw');
    render(<StudentReportView report={report()} printedAt={printedAt} />);
    expect(screen.getByTestId('report-title')).toHaveTextContent('學生體質健康測試報告');
  });
});
