import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { CATALOG } from '@/domain/menus/catalog';
import { isFamily, pageApi } from '@/domain/menus/access';
import { AccessLogWriter, type AccessLogEntry } from '../lib/access-log-writer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The access log's buffered writer (server/lib/access-log-writer.ts); `flush()` in tests and on close. */
    accessLog: AccessLogWriter;
  }
}

/** The app API's routes (the student/parent app): their caller is an app user, not a console account. */
const APP_PREFIX = '/api/v1/app/';
const USER_AGENT_MAX = 300;

/** Every catalogue page's API path, longest first, so a route takes the most specific page it sits under. */
const PAGE_APIS = CATALOG.filter((e) => e.kind === 'page' && isFamily(e.family))
  .map((e) => ({ key: e.key, api: pageApi(e.key) }))
  .sort((a, b) => b.api.length - a.api.length);

/** The catalogue page a route pattern belongs to (`/api/busi/web/k12/student/:id` → `k12.user.student`), or null. */
export function pageKeyOfRoute(route: string): string | null {
  return PAGE_APIS.find((p) => route === p.api || route.startsWith(`${p.api}/`))?.key ?? null;
}

/**
 * The access log (docs/decisions/062-access-log.md): after every answer to a signed-in caller (a console or app
 * session, a device), one row — who, the route's pattern (never the URL: its query values may hold names or ID
 * numbers), the page, status, duration, client IP, user agent — handed to the buffered writer; the request does not
 * wait for the database. Answers from the read cache are accesses too and are logged. Callers that never proved who
 * they are (a failed sign-in, a 401) are not: the sign-in log holds those.
 */
export const accessLogPlugin = fp<{ flushEveryMs?: number }>(
  async (app, opts) => {
    const pages = new Map<string, string | null>();
    const pageOf = (route: string) => {
      let key = pages.get(route);
      if (key === undefined) pages.set(route, (key = pageKeyOfRoute(route)));
      return key;
    };
    const writer = new AccessLogWriter(app.db, {
      flushEveryMs: opts.flushEveryMs,
      onError: (err, rows) => app.log.error({ err, rows }, 'access log rows lost'),
    });
    app.decorate('accessLog', writer);

    /** The caller's scope when the request loaded it, or when the auth cache holds it (no database read here). */
    const scopeOf = (request: FastifyRequest) => {
      if (request.scope || !request.session) return request.scope;
      const header = request.headers.orgid;
      return app.authCache.scope(request.authEpoch, `${request.session.userId} ${(Array.isArray(header) ? header[0] : header) ?? ''}`) ?? null;
    };

    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url;
      const device = request.device ?? null;
      if (!route || (!request.session && !device)) return;
      const base = {
        at: app.now(),
        method: request.method,
        route,
        pageKey: pageOf(route),
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime),
        ip: request.ip || null,
        userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX) ?? null,
      };
      let row: AccessLogEntry;
      if (device) row = { ...base, kind: 'device', orgId: device.orgId, deviceId: device.deviceId };
      else if (route.startsWith(APP_PREFIX)) {
        const identity = request.appIdentity ?? null;
        row = { ...base, kind: 'app', userId: request.session!.userId, orgId: identity?.students[0]?.orgId ?? null };
      } else {
        const scope = scopeOf(request);
        row = { ...base, kind: 'console', userId: request.session!.userId, orgId: scope?.tenantOrgId ?? null, accountId: scope?.accountId ?? null, roleId: scope?.roleId ?? null };
      }
      writer.push(row);
    });
    app.addHook('onClose', () => writer.close());
  },
  { name: 'tiyu-access-log', dependencies: ['tiyu-db', 'tiyu-auth', 'tiyu-tenant'] },
);
