import EChartsReactCore from 'echarts-for-react/esm/core';
import type { EChartsType } from '@/lib/echarts';

/**
 * echarts-for-react 3.0.6 first makes a throw-away instance, waits a frame for its 'finished' to read its container's
 * size, disposes it and makes the real one fixed at that size. The container here always has its size when mounted (a
 * CSS height, the full width), so the one instance is made at once, at the container's size, and follows it
 * (`autoResize`): a dashboard's charts draw a frame sooner, without twice their set-up (docs/decisions/012-lean-first-screen.md).
 */
export default class EChartsReact extends EChartsReactCore {
  override initEchartsInstance(): Promise<EChartsType> {
    return Promise.resolve(this.echarts.init(this.ele, this.props.theme, this.props.opts) as EChartsType);
  }
}
