import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file that spawns processes (a real server it kills and starts again, a second server on a locked directory). */
const SPAWNS = /\b(spawn|startServer|execFile)\(/;

/**
 * Vitest's order (a clean clone has no timings: larger files first) with, in each project, the files that spawn
 * processes moved to the front: most of their time is waiting on those processes (a job taken again after an expiry or
 * missed heartbeats), so they wait while the other worker runs the rest, instead of keeping the suite alive at its end
 * with one worker idle (docs/performance.md, "CI time").
 */
export default class SpawningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const spawns = (file: TestSpecification) => SPAWNS.test(readFileSync(file.moduleId, 'utf8'));
    const byProject = new Map<string, TestSpecification[][]>();
    for (const file of sorted) {
      const [first, rest] = byProject.get(file.project.name) ?? byProject.set(file.project.name, [[], []]).get(file.project.name)!;
      (spawns(file) ? first : rest)!.push(file);
    }
    return [...byProject.values()].flatMap(([first, rest]) => [...first!, ...rest!]);
  }
}
