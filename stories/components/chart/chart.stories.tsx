import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '@/components/chart/chart';
import type { ChartOption } from '@/lib/echarts';

const meta = {
  title: 'Components/Chart',
  component: Chart,
  parameters: { layout: 'padded' },
  args: { option: {}, height: 320 },
} satisfies Meta<typeof Chart>;
export default meta;
type Story = StoryObj<typeof meta>;

const GRADES = ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级'];

export const Bar: Story = {
  render: function Render(args) {
    const { t } = useTranslation('components');
    const option = useMemo<ChartOption>(
      () => ({
        tooltip: { trigger: 'axis' },
        // ECharts 6 puts the legend at the bottom by default; this one sits on top.
        legend: { top: 0 },
        grid: { left: 40, right: 16, bottom: 32, top: 40 },
        xAxis: { type: 'category', data: GRADES },
        yAxis: { type: 'value', max: 100 },
        series: [
          { name: t('demo.excellent'), type: 'bar', stack: 'rate', data: [22, 25, 28, 24, 30, 27] },
          { name: t('demo.pass'), type: 'bar', stack: 'rate', data: [60, 58, 55, 60, 52, 58] },
          { name: t('demo.fail'), type: 'bar', stack: 'rate', data: [18, 17, 17, 16, 18, 15] },
        ],
      }),
      [t],
    );
    return <Chart {...args} option={option} aria-label={t('demo.chartTitle')} />;
  },
};

export const LineWithMarkLine: Story = {
  render: (args) => (
    <Chart
      {...args}
      option={{
        tooltip: { trigger: 'axis' },
        xAxis: { type: 'category', data: ['9月', '10月', '11月', '12月', '1月', '3月', '4月', '5月'] },
        yAxis: { type: 'value', min: 60 },
        series: [{ type: 'line', smooth: true, data: [72.1, 73.4, 74.0, 73.2, 75.8, 76.4, 77.9, 78.3], markLine: { data: [{ type: 'average' }] } }],
      }}
    />
  ),
};

export const Pie: Story = {
  render: (args) => (
    <Chart
      {...args}
      option={{
        tooltip: { trigger: 'item' },
        legend: { bottom: 0 },
        series: [
          {
            type: 'pie',
            radius: ['40%', '70%'],
            data: [
              { name: '优秀', value: 312 },
              { name: '良好', value: 824 },
              { name: '及格', value: 1290 },
              { name: '不及格', value: 174 },
            ],
          },
        ],
      }}
    />
  ),
};

export const Radar: Story = {
  render: (args) => (
    <Chart
      {...args}
      option={{
        legend: {},
        radar: {
          indicator: ['BMI', '肺活量', '50米跑', '坐位体前屈', '跳绳', '仰卧起坐'].map((name) => ({ name, max: 100 })),
        },
        series: [
          {
            type: 'radar',
            data: [
              { name: '本校', value: [88, 76, 81, 69, 90, 78] },
              { name: '全区', value: [84, 72, 78, 73, 82, 75] },
            ],
          },
        ],
      }}
    />
  ),
};

/** 50,000 points with `large: true`: canvas draws them in one pass instead of progressively. */
export const LargeScatter: Story = {
  render: function Render(args) {
    const data = useMemo(() => Array.from({ length: 50_000 }, (_, i) => [120 + ((i * 7919) % 600) / 10, 15 + ((i * 104729) % 400) / 10]), []);
    return (
      <Chart
        {...args}
        height={420}
        option={{
          tooltip: {},
          xAxis: { type: 'value', name: 'cm', min: 120 },
          yAxis: { type: 'value', name: 'kg', min: 15 },
          dataZoom: [{ type: 'inside' }, { type: 'slider' }],
          series: [{ type: 'scatter', large: true, symbolSize: 3, data }],
        }}
      />
    );
  },
};

export const Gauge: Story = {
  render: (args) => <Chart {...args} option={{ series: [{ type: 'gauge', progress: { show: true }, detail: { formatter: '{value}%' }, data: [{ value: 93.4 }] }] }} />,
};

export const Loading: Story = {
  args: { loading: true },
  render: (args) => <Chart {...args} option={{ xAxis: { type: 'category', data: [] }, yAxis: {}, series: [] }} />,
};
