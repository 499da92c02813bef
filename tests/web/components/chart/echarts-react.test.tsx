import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import EChartsReact from '@/components/chart/echarts-react';

// jsdom has no canvas: ECharts' entry points are stand-ins that record what the component asks of them. The instance
// never fires 'finished', as a real one does only after a frame.
function fakeEcharts() {
  const calls: string[] = [];
  const instances = new Map<Element, { setOption(o: unknown): void; on(): void; off(): void; resize(): void }>();
  const echarts = {
    init: vi.fn((el: HTMLElement, _theme: unknown, opts: Record<string, unknown>) => {
      calls.push(`init ${JSON.stringify(opts)}`);
      const instance = { setOption: (o: unknown) => calls.push(`setOption ${JSON.stringify(o)}`), on: () => {}, off: () => {}, resize: () => {}, isDisposed: () => false, showLoading: () => {}, hideLoading: () => {} };
      instances.set(el, instance);
      return instance;
    }),
    getInstanceByDom: (el: HTMLElement) => instances.get(el),
    dispose: (el: HTMLElement) => {
      calls.push('dispose');
      instances.delete(el);
    },
  };
  return { echarts, calls };
}

describe('EChartsReact', () => {
  it('makes one instance at the container’s size and sets its option at once, without a throw-away instance a frame earlier', async () => {
    const { echarts, calls } = fakeEcharts();
    render(<EChartsReact echarts={echarts} option={{ series: [] }} opts={{ renderer: 'canvas' }} autoResize={false} style={{ height: 200 }} />);
    await vi.waitFor(() => expect(calls).toContain('setOption {"series":[]}'));
    // echarts-for-react's own would wait for the first instance's 'finished' and then make a second one, fixed in size.
    expect(calls).toEqual(['init {"renderer":"canvas"}', 'setOption {"series":[]}']);
  });
});
