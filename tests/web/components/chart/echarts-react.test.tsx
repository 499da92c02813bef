import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('makes one instance at the container’s size and sets its option at once, without a throw-away instance a frame earlier', async () => {
    const { echarts, calls } = fakeEcharts();
    render(<EChartsReact echarts={echarts} option={{ series: [] }} opts={{ renderer: 'canvas' }} autoResize={false} style={{ height: 200 }} />);
    await vi.waitFor(() => expect(calls).toContain('setOption {"series":[]}'));
    // echarts-for-react's own would wait for the first instance's 'finished' and then make a second one, fixed in size.
    expect(calls).toEqual(['init {"renderer":"canvas"}', 'setOption {"series":[]}']);
  });

  it('reads the size of every chart a commit mounts before any makes its canvas, and makes each at that size', async () => {
    const { echarts, calls } = fakeEcharts();
    // jsdom lays nothing out: the container's size is a stand-in that records each read.
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => (calls.push('read'), 600));
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => 200);
    render(
      <>
        <EChartsReact echarts={echarts} option={{ series: [] }} opts={{ renderer: 'canvas' }} autoResize={false} />
        <EChartsReact echarts={echarts} option={{ series: [] }} opts={{ renderer: 'canvas' }} autoResize={false} />
      </>,
    );
    await vi.waitFor(() => expect(calls.filter((c) => c.startsWith('setOption'))).toHaveLength(2));
    // Each read after another chart's canvas would lay the page out again.
    expect(calls.slice(0, 2)).toEqual(['read', 'read']);
    expect(calls.filter((c) => c.startsWith('init'))).toEqual(Array(2).fill('init {"width":600,"height":200,"renderer":"canvas"}'));
    expect(calls.filter((c) => c === 'read')).toHaveLength(2);
  });

  it('makes nothing for a chart unmounted before its instance', async () => {
    const { echarts, calls } = fakeEcharts();
    const { unmount } = render(<EChartsReact echarts={echarts} option={{ series: [] }} autoResize={false} />);
    unmount();
    await Promise.resolve();
    expect(calls.filter((c) => c.startsWith('init'))).toEqual([]);
  });
});
