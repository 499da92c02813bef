import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, scratchEngine, startServer } from '../../support/server-process';


/**
 * docs/decisions/025-pglite-durability.md: the FIRST start of a fresh database (open, migrate, seed,
 * serve in one process) is killed with SIGKILL right after its writes were acknowledged; the next start must have every
 * one of them. On PGlite (a fresh directory) by default, on a fresh PostgreSQL database when DATABASE_URL is set. The
 * seed is TIYU_DEMO_SEED=people (menus, organisations, people, accounts) so a first start takes seconds, not minutes.
 */

const PLANS = '/api/busi/web/k12/organizeTest/testManage';
type Options = { orgId: string; schoolYears: { id: string; current: boolean }[]; grades: { id: string; gradeNo: number }[] };

let engine: Awaited<ReturnType<typeof scratchEngine>>;
beforeAll(async () => {
  engine = await scratchEngine('kill');
});
afterAll(async () => {
  await engine.drop();
});

describe('an acknowledged write survives kill -9 of the first start', () => {
  // Two starts from source (tsx), the first one seeding: ≈ 30 s on a quiet machine, minutes at load ≈ 30.
  it('keeps every plan the first start acknowledged before it was killed', { timeout: 600_000 }, async () => {
    const env = { ...engine.env(), STORAGE_DIR: join(engine.dir, 'files') };
    const first = startServer(env);
    const acknowledged: string[] = [];
    try {
      const base = await first.listening;
      expect(first.output()).toContain('seeding the demo district');
      const token = await login(base);
      const { data: options } = await call<Options>(base, `${PLANS}/options`, { token });
      const year = options.schoolYears.find((y) => y.current)!.id;
      const body = (name: string) => ({
        name,
        schoolYearId: year,
        semesterCode: 13,
        startDate: '2026-11-20',
        endDate: '2026-12-20',
        scopeType: 'grade',
        scopeIds: options.grades.slice(0, 2).map((g) => g.id),
        feeAmount: 1,
        feePrecision: 2,
        feeRounding: 'round',
      });
      for (let i = 1; i <= 5; i++) {
        const res = await call<{ id: string }>(base, `${PLANS}/add`, { method: 'POST', token, body: body(`断电测试 ${i}`) });
        expect(res.status).toBe(200);
        acknowledged.push(`断电测试 ${i}`);
      }
      // At once after the last answer: nothing after it gets a chance to write.
      first.child.kill('SIGKILL');
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
      await first.exited;
    }

    const second = startServer(env);
    try {
      const base = await second.listening;
      // The restart finds the demo: it does not seed again.
      expect(second.output()).not.toContain('seeding the demo district');
      const token = await login(base);
      const { status, data } = await call<{ records: { name: string }[] }>(base, `${PLANS}/page?current=1&size=50&name=${encodeURIComponent('断电测试')}`, { token });
      expect(status).toBe(200);
      expect(data.records.map((r) => r.name).sort()).toEqual(acknowledged);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
