/**
 * What a build's module graph reaches, for the chunk-grouping plugins (scripts/signed-in-chunks.ts,
 * scripts/echarts-chunks.ts): every module from `from` on, following `next`, never entering `stop`.
 */
export function reach(from: Iterable<string>, next: (id: string) => readonly string[], stop: ReadonlySet<string> = new Set()): Set<string> {
  const seen = new Set<string>();
  const todo = [...from];
  while (todo.length) {
    const id = todo.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const n of next(id)) if (!stop.has(n)) todo.push(n);
  }
  return seen;
}
