/**
 * The action kit's options (server/lib/action.ts, docs/adding-a-screen.md#actions) on a small Fastify app of their own:
 * the route's config, the request's translator / language / clock, file answers, signed-in-only access, uploads, jobs
 * and a batch's audit rows. The database is a stand-in that records what the kit writes (the modules' suites check
 * real rows); the caller is set on the request as the console scope's hook would.
 */
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { idParamsSchema } from '@/domain/list-query';
import { pageAccess } from '@/domain/menus/access';
import type { Db } from '../../../server/db/client';
import { resourceAction, type ActionContext, type SignedIn } from '../../../server/lib/action';
import { declaredActions } from '../../../server/lib/resource';
import { registerConsoleDocs } from '../../../server/lib/openapi';
import { errorsPlugin } from '../../../server/plugins/errors';
import { i18nPlugin } from '../../../server/plugins/i18n';
import type { Actor } from '../../../server/plugins/tenant';

const PAGE = 'k12.org.class';
const U = '0b6f3a52-6c1e-4c53-9a41-7d1b2c3e4f50';
const NOW = new Date('2026-03-02T08:00:00Z');
const REPLICA = { replica: true } as unknown as Db;

interface Kit {
  app: FastifyInstance;
  audits: Record<string, unknown>[];
}

/** The kit on a bare app, signed in (or not: `signedIn: false`), with a role holding `perms` (or none: `hasRole: false`). */
async function kit(declare: (app: FastifyInstance) => void, opts: { perms?: string[]; signedIn?: boolean; hasRole?: boolean } = {}): Promise<Kit> {
  const audits: Record<string, unknown>[] = [];
  const tx = { insert: () => ({ values: async (v: Record<string, unknown> | Record<string, unknown>[]) => void audits.push(...(Array.isArray(v) ? v : [v])) }) };
  // The exporter's name and account, which a file answer writes in its footer (server/lib/spreadsheet/export-stamp.ts).
  const exporter = { select: () => ({ from: () => ({ where: () => ({ limit: async () => [{ name: '陈丽华', account: 'school01' }] }) }) }) };
  const db = { ...exporter, transaction: async (fn: (t: unknown) => unknown) => fn(tx) } as unknown as Db;
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('now', () => NOW);
  // The replica stand-in: a read the kit sends through `app.readWith` gets it, one on the primary gets `db`.
  app.decorate('readWith', async <T>(_request: unknown, read: (d: Db) => Promise<T>) => read(REPLICA));
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await registerConsoleDocs(app);
  const actor = { userId: U, accountId: U, orgId: U, tenantOrgId: U, roleId: U, orgType: 2, permissions: new Set(opts.perms ?? [pageAccess(PAGE).view]), dataScope: 'org' };
  app.decorateRequest('session', null);
  app.decorateRequest('scope', null);
  app.addHook('onRequest', async (request) => {
    if (opts.signedIn === false) return;
    (request as unknown as { session: unknown }).session = { userId: U, sessionId: 's1' };
    if (opts.hasRole !== false) (request as unknown as { scope: unknown }).scope = actor;
  });
  await app.register(multipart);
  await app.register(async (scope) => declare(scope), { prefix: '/api/busi/web/k12/org/class' });
  await app.ready();
  built.push(app);
  return { app, audits };
}
const built: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(built.splice(0).map((a) => a.close()));
});

describe('action kit options', () => {
  it('passes the route config through (the read cache keys on config.readsTables)', async () => {
    let seen: unknown;
    const { app } = await kit((scope) => {
      resourceAction(scope, { method: 'GET', path: '/cached', access: [PAGE, 'view'], config: { readsTables: [] }, read: async () => 'x' });
      scope.addHook('preHandler', async (request) => {
        seen = request.routeOptions.config;
      });
    });
    const res = await app.inject({ url: '/api/busi/web/k12/org/class/cached' });
    expect(res.statusCode).toBe(200);
    expect(seen).toMatchObject({ readsTables: [] });
  });

  it("gives handlers the request's translator, language and the app's clock", async () => {
    let ctx: ActionContext | undefined;
    const { app } = await kit((scope) =>
      resourceAction(scope, {
        method: 'GET',
        path: '/ctx',
        access: [PAGE, 'view'],
        read: async (_db, _actor, _input, c) => {
          ctx = c;
          return c.t('common:appName');
        },
      }),
    );
    const zh = await app.inject({ url: '/api/busi/web/k12/org/class/ctx', headers: { 'accept-language': 'zh-CN' } });
    const en = await app.inject({ url: '/api/busi/web/k12/org/class/ctx', headers: { 'accept-language': 'en-US' } });
    expect(ctx?.now).toEqual(NOW);
    expect(ctx?.locale).toBe('en_us');
    expect(en.json().data).not.toBe(zh.json().data);
    expect(en.json().data).not.toBe('common:appName');
  });

  it("answers a file: a workbook as sendXlsx sends it, any other with its type, the document's answer a file", async () => {
    const { app } = await kit((scope) => {
      resourceAction(scope, { method: 'GET', path: '/book', access: [PAGE, 'view'], answers: 'file', read: async () => ({ workbook: Buffer.from('PK'), fileName: '成绩 1.xlsx', headers: { 'x-import-success': '3' } }) });
      resourceAction(scope, { method: 'GET', path: '/pdf', access: [PAGE, 'view'], answers: 'file', read: async () => ({ body: Buffer.from('%PDF'), fileName: 'a.pdf', contentType: 'application/pdf' }) });
    });
    const book = await app.inject({ url: '/api/busi/web/k12/org/class/book' });
    expect(book.statusCode).toBe(200);
    expect(book.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(book.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${encodeURIComponent('成绩 1.xlsx')}`);
    expect(book.headers['cache-control']).toBe('no-store');
    expect(book.headers['x-import-success']).toBe('3');
    expect(book.body).toBe('PK');
    const pdf = await app.inject({ url: '/api/busi/web/k12/org/class/pdf' });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body).toBe('%PDF');
    const doc = (await app.inject({ url: '/api/docs/console/json' })).json<{ paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: { format?: string } }> }> } }> }>();
    expect(doc.paths['/api/busi/web/k12/org/class/book'].get.responses['200'].content['application/octet-stream'].schema.format).toBe('binary');
    expect(declaredActions(app.db).find((a) => a.url.endsWith('/book'))?.kind).toBe('file');
  });

  it("lets any signed-in caller in with access 'signed-in' (no permission, no role needed), and still not a stranger", async () => {
    const declare = (scope: FastifyInstance) =>
      resourceAction(scope, { method: 'GET', path: '/mine', access: 'signed-in', summary: '我的', read: async (_db, me: SignedIn) => me.userId });
    const noRole = await kit(declare, { perms: [], hasRole: false });
    const res = await noRole.app.inject({ url: '/api/busi/web/k12/org/class/mine' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBe(U);
    expect(declaredActions(noRole.app.db).find((a) => a.url.endsWith('/mine'))).toMatchObject({ signedIn: true, access: [] });
    const stranger = await kit(declare, { signedIn: false });
    expect((await stranger.app.inject({ url: '/api/busi/web/k12/org/class/mine' })).statusCode).toBe(401);
  });

  it('reads one uploaded file into input.file, and refuses a request without one (400)', async () => {
    const { app } = await kit((scope) =>
      resourceAction(scope, { method: 'POST', path: '/upload', access: [PAGE, 'view'], upload: true, read: async (_db, _a, { file }) => ({ name: file?.fileName, size: file?.buffer.length }) }),
    );
    const boundary = 'kitboundary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="成绩.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\nabcd\r\n--${boundary}--\r\n`;
    const res = await app.inject({ method: 'POST', url: '/api/busi/web/k12/org/class/upload', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ name: '成绩.xlsx', size: 4 });
    const none = await app.inject({ method: 'POST', url: '/api/busi/web/k12/org/class/upload', payload: {} });
    expect(none.statusCode).toBe(400);
  });

  it("starts a job: answers its id, with the request's language, and writes no audit row itself", async () => {
    const started: unknown[] = [];
    const { app, audits } = await kit((scope) =>
      resourceAction(scope, {
        method: 'POST',
        path: '/export',
        access: [PAGE, 'view'],
        enqueue: async (_db, actor: Actor, _input, ctx) => {
          started.push([actor.userId, ctx.locale]);
          return 'job-1';
        },
      }),
    );
    const res = await app.inject({ method: 'POST', url: '/api/busi/web/k12/org/class/export', payload: {}, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ id: 'job-1' });
    expect(started).toEqual([[U, 'en_us']]);
    expect(audits).toEqual([]);
  });

  it('writes one audit row per id of a batch, and none for an empty one', async () => {
    const { app, audits } = await kit((scope) =>
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/invalid',
        access: [PAGE, 'view'],
        params: idParamsSchema,
        entity: 'class',
        audit: 'invalid',
        write: async (_tx, _a, { params }) => ({ after: { invalid: true }, entityIds: params.id === U ? ['a', 'b'] : [], answer: { changed: 2 } }),
      }),
    );
    const res = await app.inject({ method: 'POST', url: `/api/busi/web/k12/org/class/${U}/invalid`, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ changed: 2 });
    expect(audits.map((a) => [a.entity, a.entityId, a.action])).toEqual([
      ['class', 'a', 'invalid'],
      ['class', 'b', 'invalid'],
    ]);
    await app.inject({ method: 'POST', url: `/api/busi/web/k12/org/class/${U.replace('0b', '1b')}/invalid`, payload: {} });
    expect(audits).toHaveLength(2);
  });

  it("reads on the primary with reads: 'primary' (a job's progress, a read that may write), else through app.readWith", async () => {
    const { app } = await kit((scope) => {
      resourceAction(scope, { method: 'GET', path: '/fresh', access: [PAGE, 'view'], reads: 'primary', read: async (db) => db === scope.db });
      resourceAction(scope, { method: 'GET', path: '/freshFile', access: [PAGE, 'view'], reads: 'primary', answers: 'file', read: async (db) => ({ body: Buffer.from(String(db === scope.db)), fileName: 'a.txt', contentType: 'text/plain' }) });
      resourceAction(scope, { method: 'GET', path: '/any', access: [PAGE, 'view'], read: async (db) => db === REPLICA });
    });
    expect((await app.inject({ url: '/api/busi/web/k12/org/class/fresh' })).json().data).toBe(true);
    expect((await app.inject({ url: '/api/busi/web/k12/org/class/freshFile' })).body).toBe('true');
    expect((await app.inject({ url: '/api/busi/web/k12/org/class/any' })).json().data).toBe(true);
  });
});
