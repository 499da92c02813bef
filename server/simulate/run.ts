import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import type { Db } from '../db/client';
import type { Env } from '../env';
import type { Send } from './traffic';
import { simulate, type SimulateOptions, type SimulateReport } from './fleet';

/** Sends through `app.inject`: the whole request pipeline, no socket. */
export const injectSend =
  (app: FastifyInstance): Send =>
  async (method, url, headers, body) => {
    const res = await app.inject({ method: method as 'GET', url, headers, ...(body === undefined ? {} : { payload: body as object }) });
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
 * in a few hundred app users from one address within a minute.
 */
export async function simulateInProcess(db: Db, env: Env, opts: SimulateOptions): Promise<SimulateReport> {
  const app: FastifyInstance = await buildApp({ db, env: { ...env, TIYU_CAPTCHA_FIXED: undefined }, rateLimits: { loginPerMinute: 1_000_000, captchaPerMinute: 1_000_000 } });
  try {
    return await simulate(db, injectSend(app), opts);
  } finally {
    await app.close();
  }
}
