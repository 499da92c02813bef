import { describe, expect, it } from 'vitest';
import { chartParts, loadChartParts, type ChartOption } from '@/lib/echarts';

// A page loads the ECharts parts its charts draw (docs/decisions/012-lean-first-screen.md, "Charts").
describe('chart parts', () => {
  it('derives the parts from the series types, their marks and the components set', () => {
    const bars: ChartOption = {
      tooltip: { trigger: 'axis' },
      legend: {},
      xAxis: { type: 'category', data: ['一年级'] },
      yAxis: { type: 'value' },
      series: [
        { type: 'bar', data: [1], markLine: { data: [{ type: 'average' }] } },
        { type: 'line', data: [2] },
      ],
    };
    expect(chartParts(bars).sort()).toEqual(['bar', 'grid', 'legend', 'line', 'markLine', 'tooltip']);
    const radar: ChartOption = { radar: { indicator: [{ name: '50米跑' }] }, series: { type: 'radar', data: [{ value: [80] }] } };
    expect(chartParts(radar).sort()).toEqual(['radar', 'radarComponent']);
    expect(chartParts({ series: [] })).toEqual([]);
  });

  it('loads a part once and then reports nothing left to load', async () => {
    const option: ChartOption = { series: [{ type: 'pie', data: [{ name: '优秀', value: 3 }] }] };
    const pending = loadChartParts(option);
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    expect(loadChartParts(option)).toBeUndefined();
  });
});
