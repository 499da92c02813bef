import EChartsReactCore from 'echarts-for-react/esm/core';
import type { EChartsType } from '@/lib/echarts';

/**
 * echarts-for-react 3.0.6 first makes a throw-away instance, waits a frame for its 'finished' to read its container's
 * size, disposes it and makes the real one fixed at that size. The container here always has its size when mounted (a
 * CSS height, the full width), so the one instance is made at once, at the container's size, and follows it
 * (`autoResize`, which resizes to 'auto'): a dashboard's charts draw a frame sooner, without twice their set-up
 * (docs/decisions/012-lean-first-screen.md).
 *
 * The size is read as the chart mounts and the instance is made a microtask later, with that size: the charts a commit
 * mounts all read theirs before any of them adds its canvas, so the page is laid out once for all of them. ECharts'
 * init reads the size itself otherwise, and each chart's canvas made the next one's read lay the page out again
 * (≈ 84 ms of forced layout on the K12 school view's first load, docs/performance.md).
 */
export default class EChartsReact extends EChartsReactCore {
  /** The latest init asked for: a stale one (unmounted, or re-made meanwhile) makes nothing. */
  private initAsked = 0;

  override initEchartsInstance(): Promise<EChartsType> {
    const ele = this.ele;
    const asked = ++this.initAsked;
    // A container without a size (not displayed) leaves it to ECharts, which then falls back to its styles.
    const size = { width: ele.clientWidth || undefined, height: ele.clientHeight || undefined };
    return new Promise((resolve) => {
      queueMicrotask(() => {
        // Unmounted or re-made before the microtask: that init never resolves, so nothing follows it.
        if (asked !== this.initAsked || !ele.isConnected) return;
        resolve(this.echarts.init(ele, this.props.theme, { ...size, ...this.props.opts }) as EChartsType);
      });
    });
  }

  override componentDidUpdate(prevProps: EChartsReactCore['props']): void {
    // Props that change before the instance exists are read when it is made.
    if (this.getEchartsInstance()) super.componentDidUpdate(prevProps);
  }

  override componentWillUnmount(): void {
    this.initAsked++;
    super.componentWillUnmount();
  }
}
