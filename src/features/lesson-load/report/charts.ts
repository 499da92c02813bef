import type { LoadReport } from '@/domain/lesson-load/report';
import { CURRICULUM_TARGETS } from '@/domain/lesson-load/zones';
import type { ChartOption } from '@/lib/echarts';

/** Labels the charts need, in the reader's language. */
export interface CurveLabels {
  classMean: string;
  mainPart: string;
  band: string;
  minute: (minute: number) => string;
  bpm: string;
}

type Point = [minute: number, bpm: number | null];

/** A curve's points at the middle of each minute, with a gap (null) where a minute has no samples. */
export function points(curve: readonly { minute: number; meanBpm: number }[]): Point[] {
  const out: Point[] = [];
  curve.forEach((c, i) => {
    if (i > 0 && c.minute !== curve[i - 1].minute + 1) out.push([c.minute, null]);
    out.push([c.minute + 0.5, c.meanBpm]);
  });
  return out;
}

/**
 * The class mean curve with the main part shaded and the curriculum's 140–160 band, and the picked students' own
 * curves over it (thin lines).
 */
export function curveOption(report: LoadReport, labels: CurveLabels, picked: readonly { name: string; curve: readonly { minute: number; meanBpm: number }[] }[] = []): ChartOption {
  const { curve, mainPart } = report.load;
  const span = Math.max(report.lesson.minutes, (curve.at(-1)?.minute ?? 0) + 1);
  const all = [...curve, ...picked.flatMap((p) => p.curve)].map((c) => c.meanBpm);
  const lo = Math.min(60, Math.floor(Math.min(...all, 60) / 20) * 20);
  const hi = Math.max(200, Math.ceil(Math.max(...all, 200) / 20) * 20);
  return {
    animation: false,
    tooltip: { trigger: 'axis', valueFormatter: (v) => (v == null ? '—' : `${String(v)} ${labels.bpm}`) },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'value', min: 0, max: span, minInterval: 1, axisLabel: { formatter: (v: number) => String(v) }, axisPointer: { label: { formatter: (p) => labels.minute(Math.floor(Number(p.value)) + 1) } } },
    yAxis: { type: 'value', min: lo, max: hi, interval: 20, name: labels.bpm, nameTextStyle: { align: 'left' } },
    series: [
      {
        name: labels.classMean,
        type: 'line',
        data: points(curve),
        showSymbol: false,
        connectNulls: false,
        lineStyle: { width: 3 },
        z: 3,
        markArea: {
          silent: true,
          data: [
            [{ name: labels.mainPart, xAxis: mainPart.from, itemStyle: { color: 'rgba(99, 102, 241, 0.07)' }, label: { position: 'insideTopLeft', color: '#64748b' } }, { xAxis: mainPart.to }],
            [{ name: labels.band, yAxis: CURRICULUM_TARGETS.meanBpmMin, itemStyle: { color: 'rgba(34, 197, 94, 0.14)' }, label: { position: 'insideBottomRight', color: '#15803d' } }, { yAxis: CURRICULUM_TARGETS.meanBpmMax }],
          ],
        },
      },
      ...picked.map((p) => ({ name: p.name, type: 'line' as const, data: points(p.curve), showSymbol: false, connectNulls: false, lineStyle: { width: 1.5 } })),
    ],
  };
}
