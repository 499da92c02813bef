/**
 * ECharts in few files (docs/decisions/012-lean-first-screen.md, "Charts"): the core with the canvas renderer in one
 * chunk, each chart type or component in its own (src/lib/chart-parts.ts imports them lazily, per chart drawn or
 * screen's data preload), and what two parts or more share in one more chunk. Left to itself the bundler cut what the
 * core and the parts share into dozens of sub-kilobyte chunks (axis helpers, series data), so a page with three chart
 * types loaded ~30 ECharts files.
 *
 * The sets are computed on the module graph once it is known (buildEnd): the core is every ECharts or ZRender module
 * src/lib/echarts.ts reaches statically; a part is a module src/lib/chart-parts.ts imports dynamically, with what it
 * reaches outside the core. The groups do not pull in their modules' dependencies (tslib, which other packages use
 * too, stays where it is).
 */
import type { Plugin, Rolldown } from 'vite';
import { reach } from './module-graph.js';

const WRAPPER = /[\\/]src[\\/]lib[\\/]echarts\.ts$/;
const PARTS = /[\\/]src[\\/]lib[\\/]chart-parts\.ts$/;
const ECHARTS = /[\\/]node_modules[\\/](echarts|zrender)[\\/]/;

export function echartsChunks(): { plugin: Plugin; groups: Rolldown.CodeSplittingGroup[] } {
  const core = new Set<string>();
  const shared = new Set<string>();
  const plugin: Plugin = {
    name: 'tiyu-echarts-chunks',
    apply: 'build',
    buildEnd() {
      core.clear();
      shared.clear();
      const ids = [...this.getModuleIds()];
      const wrapper = ids.find((id) => WRAPPER.test(id));
      const parts = ids.find((id) => PARTS.test(id));
      if (!wrapper || !parts) return;
      // ECharts' and ZRender's own modules only: tslib and the like stay where the bundler puts them.
      const within = (ids: readonly string[]) => ids.filter((id) => ECHARTS.test(id));
      const walk = (from: readonly string[], stop: ReadonlySet<string>) => reach(within(from), (id) => within(this.getModuleInfo(id)?.importedIds ?? []), stop);
      for (const id of walk(this.getModuleInfo(wrapper)?.importedIds ?? [], new Set())) core.add(id);
      const seenBy = new Map<string, number>();
      for (const part of this.getModuleInfo(parts)?.dynamicallyImportedIds ?? []) {
        for (const id of walk([part], core)) seenBy.set(id, (seenBy.get(id) ?? 0) + 1);
      }
      for (const [id, count] of seenBy) if (count > 1) shared.add(id);
    },
  };
  return {
    plugin,
    groups: [
      { name: 'echarts', test: (id) => core.has(id), includeDependenciesRecursively: false },
      { name: 'echarts-parts', test: (id) => shared.has(id), includeDependenciesRecursively: false },
    ],
  };
}
