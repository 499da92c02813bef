/**
 * The console API's OpenAPI document (server/lib/openapi.ts, /api/docs/console/json): valid OpenAPI 3, with a path
 * for every route the kits declared (so a new declaration is documented without anyone writing it down), each with
 * its summary, tag and session; and the worked examples' response schemas describe what the routes really answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeSchema, pageSchema } from '@/domain/api';
import { meetRowSchema } from '@/domain/meets/meets';
import { classDetailSchema } from '@/domain/school/classes';
import { declaredActions, declaredResources } from '../../../server/lib/resource';
import { declaredLinked } from '../../../server/lib/linked';
import { createTestApp, type TestApp } from '../../support/server-app';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Doc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
}

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp({ seeded: true });
  const res = await t.app.inject({ url: '/api/docs/console/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json<Doc>();
});
afterAll(async () => t?.close());

/** A fastify URL pattern as an OpenAPI path (`/:id/end` → `/{id}/end`). */
const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
/** The operation of a route, allowing for the trailing slash of a create at the prefix itself. */
const operation = (method: string, url: string): Operation | undefined => {
  const path = openapiPath(url);
  return (doc.paths[path] ?? doc.paths[`${path}/`] ?? doc.paths[path.replace(/\/$/, '')])?.[method.toLowerCase()];
};

describe('console OpenAPI document', () => {
  it('is OpenAPI 3 of the console API only, every operation with its answers, path parameters and the session', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.components.securitySchemes).toHaveProperty('session');
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((p) => !p.startsWith('/api/busi/web/'))).toEqual([]);
    const broken: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const named = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        if (!op.responses || Object.keys(op.responses).length === 0) broken.push(`${method} ${path}: no responses`);
        if (!op.tags?.length) broken.push(`${method} ${path}: no tag`);
        if (!op.security?.some((s) => 'session' in s)) broken.push(`${method} ${path}: no session`);
        const inPath = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        for (const name of named) if (!inPath.includes(name)) broken.push(`${method} ${path}: path parameter ${name} undeclared`);
      }
    }
    expect(broken).toEqual([]);
    // Every reference points into the document.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]);
    const resolve = (ref: string) => ref.split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
    expect(refs.filter((r) => resolve(r) === undefined)).toEqual([]);
  });

  it('documents every route the kits declared, with a summary from the catalogue', () => {
    const missing: string[] = [];
    const check = (method: string, url: string) => {
      const op = operation(method, url);
      if (!op) missing.push(`${method} ${url}`);
      else if (!op.summary) missing.push(`${method} ${url}: no summary`);
    };
    const resources = declaredResources(t.db);
    const actions = declaredActions(t.db);
    const linked = declaredLinked(t.db);
    expect(resources.length).toBeGreaterThan(20);
    for (const r of resources) {
      const routes = { list: ['GET', '/page'], get: ['GET', '/:id'], create: ['POST', ''], update: ['PUT', '/:id'], remove: ['DELETE', '/:id'] } as const;
      for (const m of r.methods) check(routes[m][0], `${r.prefix}${routes[m][1]}`);
    }
    for (const a of actions) check(a.method, a.url);
    for (const l of linked) {
      check('GET', `${l.prefix}/:id/${l.path}`);
      check('GET', `${l.prefix}/:id/candidates`);
      check('POST', `${l.prefix}/:id/${l.path}`);
      check('DELETE', `${l.prefix}/:id/${l.path}`);
      check('DELETE', `${l.prefix}/:id/${l.path}/:memberId`);
    }
    expect(missing).toEqual([]);
    // The summary names the page and the button in zh_cn; the tag is the page's area.
    const end = operation('POST', '/api/busi/web/k12/sportsMeet/:id/end');
    expect(end?.summary).toBe('运动会管理 · 提前结束');
    expect(end?.tags).toEqual(['k12 · 运动会']);
    expect(operation('POST', '/api/busi/web/k12/org/class')?.summary).toBe('班级管理 · 新增');
  });

  it('describes the data of the worked examples, and their real answers fit it with every field the web reads', async () => {
    const schemaOf = (method: string, url: string) => JSON.stringify(operation(method, url)?.responses['200']?.content?.['application/json']?.schema);
    expect(schemaOf('GET', '/api/busi/web/k12/org/class/page')).toContain('headTeacherName');
    expect(schemaOf('GET', '/api/busi/web/k12/org/class/:id')).toContain('studentCount');
    expect(schemaOf('GET', '/api/busi/web/k12/sportsMeet/page')).toContain('arrangeState');
    // A route without a data schema still documents the envelope.
    expect(schemaOf('GET', '/api/busi/web/k12/org/grade/page')).toContain('"records"');

    const school = t.as('school01');
    const classes = await school.get<{ records: Record<string, unknown>[] }>('/api/busi/web/k12/org/class/page');
    expect(classes.status).toBe(200);
    expect(classes.body.data.records.length).toBeGreaterThan(0);
    expect(envelopeSchema(pageSchema(classDetailSchema.strict())).safeParse(classes.json).error).toBeUndefined();
    const id = String(classes.body.data.records[0].id);
    const detail = await school.get(`/api/busi/web/k12/org/class/${id}`);
    expect(envelopeSchema(classDetailSchema.strict()).safeParse(detail.json).error).toBeUndefined();
    const meets = await school.get<{ records: unknown[] }>('/api/busi/web/k12/sportsMeet/page');
    expect(meets.status).toBe(200);
    expect(meets.body.data.records.length).toBeGreaterThan(0);
    expect(envelopeSchema(pageSchema(meetRowSchema.strict())).safeParse(meets.json).error).toBeUndefined();
  });

  it('is offered beside the device/app API on the /api/docs page, which keeps its own document', async () => {
    const init = await t.app.inject({ url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('/api/docs/console/json');
    const device = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(device.paths).every((p) => p.startsWith('/api/v1/'))).toBe(true);
  });
});
