/** Timing helpers shared by the benchmarks (a folder of its own, so `npm run bench` does not run it as one). */

/** The p-th percentile (nearest rank) of ascending `sorted`; NaN when it is empty. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/**
 * 3 warm-ups, then `runs` timed calls of `fn`, or fewer (at least 5) once they have taken `budgetMs`: p50, p95 and
 * how many ran.
 */
export async function timeRuns(fn: () => Promise<unknown>, runs: number, budgetMs = Infinity): Promise<{ p50: number; p95: number; runs: number }> {
  for (let i = 0; i < 3; i++) await fn();
  const ms: number[] = [];
  const start = performance.now();
  for (let i = 0; i < runs && (i < 5 || performance.now() - start < budgetMs); i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), runs: ms.length };
}
