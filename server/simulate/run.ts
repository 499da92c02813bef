import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { simulate, type SimulateOptions, type SimulateReport } from './fleet';

/**
 * Runs the simulation through the HTTP routes of an app of its own (app.inject: the whole request pipeline), with
 * sign-in rate limits lifted: the fleet signs in a few hundred app users from one address within a minute.
 */
export async function simulateInProcess(db: Db, env: Env, opts: SimulateOptions): Promise<SimulateReport> {
  const app: FastifyInstance = await buildApp({ db, env: { ...env, TIYU_CAPTCHA_FIXED: undefined }, rateLimits: { loginPerMinute: 1_000_000, captchaPerMinute: 1_000_000 } });
  try {
    return await simulate(db, async (method, url, headers, body) => {
      const res = await app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: res.statusCode, json: res.json() };
    }, opts);
  } finally {
    await app.close();
  }
}
