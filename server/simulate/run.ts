import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import type { Db } from '../db/client';
import type { Env } from '../env';
import type { Send } from './traffic';
import { simulate, type SimulateOptions, type SimulateReport } from './fleet';
import { simulateHeartRate } from './heart-rate-fleet';

/**
 * The simulator's own client address (RFC 5737 documentation range). Sign-in limits are counted per route and address
 * in the database (server/lib/shared-limits.ts), so the fleet's few hundred sign-ins must not land on the count of
 * the real clients on loopback, who would then be refused for a minute after a simulated start.
 */
const SIMULATOR_ADDRESS = '192.0.2.1';

/** Sends through `app.inject`: the whole request pipeline, no socket. */
export const injectSend =
  (app: FastifyInstance): Send =>
  async (method, url, headers, body) => {
    const res = await app.inject({ method: method as 'GET', url, headers, remoteAddress: SIMULATOR_ADDRESS, ...(body === undefined ? {} : { payload: body as object }) });
    let json: unknown = null;
    try {
      json = JSON.parse(res.body);
    } catch {
      // tus answers carry no JSON body
    }
    return { status: res.statusCode, json, headers: res.headers as Record<string, string> };
  };

/**
 * Runs the simulation through the HTTP routes of an app of its own, with sign-in rate limits lifted: the fleet signs
 * in a few hundred app users from one address within a minute. `heartRateDays` (default 0: the demo seed already
 * holds a term of heart-rate lessons) adds the hubs' heart-rate lessons of that many last days.
 */
export async function simulateInProcess(db: Db, env: Env, opts: SimulateOptions & { heartRateDays?: number }): Promise<SimulateReport> {
  const app: FastifyInstance = await buildApp({ db, env: { ...env, TIYU_CAPTCHA_FIXED: undefined }, rateLimits: { loginPerMinute: 1_000_000, captchaPerMinute: 1_000_000 } });
  try {
    const report = await simulate(db, injectSend(app), opts);
    if (opts.heartRateDays) await simulateHeartRate(db, injectSend(app), { days: opts.heartRateDays, now: opts.now, seed: opts.seed, log: opts.log });
    return report;
  } finally {
    await app.close();
  }
}
