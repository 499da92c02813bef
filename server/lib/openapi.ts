import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, pageSchema } from '@/domain/api';
import { pageApi } from '@/domain/menus/access';
import { BUTTON_ACTIONS, CATALOG, getCatalogEntry, type ButtonAction, type CatalogEntry } from '@/domain/menus/catalog';

/**
 * The console API's OpenAPI document (docs/decisions/038-console-openapi.md), beside the device/app one
 * (server/modules/ingest/ingest.routes.ts): every route under /api/busi/web with the zod schemas it validates with,
 * and what the kits (resource, action, linked) add — a summary from the catalogue page and button, a tag per area,
 * the session, and the answer's envelope with its data's schema where the declaration gives one.
 */

/** Where the console's API lives (server/modules/index.ts). */
const CONSOLE_API = '/api/busi/web/';

/** The console document's JSON, beside the device/app API's `/api/docs/json`. */
export const CONSOLE_DOC_URL = '/api/docs/console/json';

declare module 'fastify' {
  interface FastifyInstance {
    /** The console API's OpenAPI document. */
    consoleSwagger: FastifyInstance['swagger'];
  }
}

const security = [{ session: [] }];

/** The top catalogue group of a page, with its family: the document's tag of the page's routes ('k12 · 组织管理'). */
function areaOf(entry: CatalogEntry): string {
  let top = entry;
  for (let parent = top.parent && getCatalogEntry(top.parent); parent; parent = parent.parent && getCatalogEntry(parent.parent)) top = parent;
  return `${entry.family} · ${top.name}`;
}

/** The zh_cn label of a permission: the button's, or 查看 for the page's view permission. */
export const labelOf = (action: ButtonAction | 'view') => (action === 'view' ? '查看' : BUTTON_ACTIONS[action]);

/** The documentation part of a kit route's schema: its area's tag, a summary (page · what it does) and the session. */
export function kitDoc(key: string, action: ButtonAction | 'view', what?: string): Pick<FastifySchema, 'tags' | 'summary' | 'security'> {
  const entry = getCatalogEntry(key);
  if (!entry) return { security };
  return { tags: [areaOf(entry)], summary: `${entry.name} · ${what ?? labelOf(action)}`, security };
}

/** What a declaration that does not say what it answers answers: one schema, so its envelope is built once (envelopeSchema). */
const undeclared = z.unknown();

/** The answer of a route: the envelope around `data` (unknown when the declaration does not say). */
export const answerSchema = (data: z.ZodType | undefined) => ({ 200: envelopeSchema(data ?? undeclared) });

/** The answer of a file download (`answers: 'file'` of the action kit): bytes, not the envelope. */
export const fileAnswerSchema = () => ({
  200: { description: 'A file (attachment; its name in content-disposition filename*)', content: { 'application/octet-stream': { schema: z.file() } } },
});

/** The answer of a paged list: the envelope around a page of `row`. */
export const pageAnswerSchema = (row: z.ZodType | undefined) => answerSchema(pageSchema(row ?? undeclared));

/**
 * The serializer of routes with a response schema: the answer as the handler built it. The schema describes the
 * answer for the document (tests/server/console-openapi.test.ts checks the worked examples' answers fit it); it never
 * strips a field the web reads or turns a drifted field into a 500.
 */
export const asIs = () => (data: unknown) => JSON.stringify(data);

// Catalogue pages by API prefix, longest first: the tag of a route a kit did not declare (a resource's `extra`).
const pagePrefixes = CATALOG.filter((e) => e.kind === 'page' && e.family !== 'personal')
  .flatMap((e) => {
    try {
      return [{ prefix: pageApi(e.key), entry: e }];
    } catch {
      return [];
    }
  })
  .sort((a, b) => b.prefix.length - a.prefix.length);

/** Registers the console document on the root app: call before the console's modules register their routes. */
export async function registerConsoleDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    decorator: 'consoleSwagger',
    openapi: {
      info: {
        title: 'tiyu console API',
        version: '1',
        description:
          'The API of the web console (/busi/), under /api/busi/web. Every call needs a signed-in session (bearer access token from POST /api/sso/login) and the catalogue permission its summary names (page · button); another organisation\'s row answers 404 like a missing one. Every answer is the envelope `{ code, data, msg }`: `code` "200" on success, else the HTTP status as a string with `msg` the translated message (accept-language zh-CN, zh-TW, en-US). Lists are paged with `current` (from 1) and `size`; a save carries the `version` it loaded and answers 409 when someone saved since. Rules: docs/product-rules.md.',
      },
      components: {
        securitySchemes: { session: { type: 'http', scheme: 'bearer', description: 'access_token of POST /api/sso/login (refresh with POST /api/sso/oauth/token)' } },
      },
    },
    transform: (document) => {
      const { url, schema } = document;
      if (!url.startsWith(CONSOLE_API)) return { url, schema: { hide: true } };
      const tagged = schema?.tags ? schema : { ...schema, ...untaggedDoc(url) };
      return jsonSchemaTransform({ ...document, schema: tagged });
    },
  });
  app.get(CONSOLE_DOC_URL, { schema: { hide: true } }, async () => app.consoleSwagger());
}

/** Tag and session of a console route no kit declared, from the catalogue page its URL sits under. */
function untaggedDoc(url: string): FastifySchema {
  const page = pagePrefixes.find((p) => url === p.prefix || url.startsWith(`${p.prefix}/`));
  // Outside the catalogue's pages (the signed-in user's own data, menus, jobs): the URL's first segment.
  return { tags: [page ? areaOf(page.entry) : url.slice(CONSOLE_API.length).split('/')[0]], security };
}
