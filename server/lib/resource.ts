import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AuditEntity } from '@/domain/platform/audit';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, type Page } from '@/domain/api';
import { ERR, OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import { pageApi, type Family } from '@/domain/menus/access';
import type { ButtonAction } from '@/domain/menus/catalog';
import type { Db, DbOrTx, Tx } from '../db/client';
import type { DeclaredAction } from './action';
import { requireAccess, requireActor, type Actor } from '../plugins/tenant';
import { AppError } from './app-error';
import { audit } from './audit';
import { answerSchema, asIs, kitDoc, pageAnswerSchema } from './openapi';
import { isUuid } from './ids';
import { logReveal, shownPage, type SensitiveFields } from './sensitive';

/**
 * The server half of a management screen (docs/adding-a-screen.md): a plain CRUD
 * resource's routes as one declaration. Every route runs auth → actor → catalogue permission → zod → service; writes
 * run in one transaction with their audit row.
 *
 *   GET    {prefix}/page      list   (page action 'view')
 *   GET    {prefix}/:id       get    ('view')
 *   POST   {prefix}           create ('add')
 *   PUT    {prefix}/:id       update ('edit'; the body carries `version`)
 *   DELETE {prefix}/:id       remove ('delete')
 *
 * Anything else the screen does (end, publish, a row's sub-rows…) is declared in `extra` with `resourceAction`
 * (server/lib/action.ts), which registers into the same registry as the resources here.
 */

/** What an update or delete changed: the row before and after (for the audit log), and the answer. */
export interface Change<T> {
  before: unknown;
  after: T;
}

export interface ResourceSpec<L extends z.ZodType, C extends z.ZodType, U extends z.ZodType, Row, Saved> {
  /** Catalogue page key: permissions come from its view permission and buttons. */
  key: string;
  /** Entity name written to the audit log ('class'; src/domain/platform/audit.ts labels it). */
  entity: AuditEntity;
  list?: { query: L; handler(db: DbOrTx, actor: Actor, query: z.output<L>): Promise<Page<Row>> };
  get?(db: DbOrTx, actor: Actor, id: string): Promise<unknown>;
  create?: { body: C; handler(tx: Tx, actor: Actor, body: z.output<C>): Promise<Saved & { id: string }> };
  update?: { body: U; handler(tx: Tx, actor: Actor, id: string, body: z.output<U>): Promise<Change<Saved>> };
  /** Deletes and answers the row as it was; refuse with `assertUnused` when other rows depend on it. */
  remove?(tx: Tx, actor: Actor, id: string): Promise<unknown>;
  /**
   * Fields of the list's rows and the get's record holding mobiles or ID numbers (server/lib/sensitive.ts): the list
   * masks them without the page's `sensitive` button, and every unmasked view (list or form) is logged
   * (docs/product-rules.md#personal-data-access).
   */
  sensitive?: SensitiveFields;
  /** Permission of the reads when another screen also lists them (e.g. a dictionary), as [key, action] pairs. */
  alsoReadBy?: readonly [string, ButtonAction | 'view'][];
  /**
   * The answers' data for the OpenAPI document (/api/docs): a list row and the get's detail, zod from src/domain.
   * They describe, never filter: the answer goes out as the handler built it (server/lib/openapi.ts). `saved` is what a
   * create or update answers (the saved row as its handler returns it).
   */
  response?: { row?: z.ZodType; detail?: z.ZodType; saved?: z.ZodType };
}

/** The API prefix of a catalogue page, relative to the family base (`/api/busi/web/{family}`) a module is registered under. */
export const relativeApi = (key: string, family: Family) => pageApi(key).slice(`/api/busi/web/${family}`.length);

/** What a `registerResource` declared, as the kit-contract test suite reads it. */
export interface DeclaredResource {
  key: string;
  family: Family;
  entity: AuditEntity;
  /** The API prefix the routes sit under (`/api/busi/web/{family}/...`). */
  prefix: string;
  methods: readonly ('list' | 'get' | 'create' | 'update' | 'remove')[];
  /** The update body's schema (the suite builds a valid body from a row's detail with it). */
  updateBody?: z.ZodType;
}

/** One declaration of the kits: a resource, or an action (server/lib/action.ts). */
export type Declaration = { kind: 'resource'; resource: DeclaredResource } | { kind: 'action'; action: DeclaredAction };

// Keyed by the app's database handle (one per built app; scopes share it), so a test sees what its own app declared.
const declared = new WeakMap<object, Declaration[]>();

/** Records a declaration of the app built on `db` (the kits call it as they register routes). */
export function declare(db: Db, declaration: Declaration): void {
  const list = declared.get(db) ?? [];
  list.push(declaration);
  declared.set(db, list);
}

/** Every resource the app built on `db` declared, in registration order (tests/server/kit-contract.test.ts). */
export const declaredResources = (db: Db): readonly DeclaredResource[] =>
  (declared.get(db) ?? []).flatMap((d) => (d.kind === 'resource' ? [d.resource] : []));

/** Every action the app built on `db` declared, in registration order (tests/server/kit-contract.test.ts). */
export const declaredActions = (db: Db): readonly DeclaredAction[] => (declared.get(db) ?? []).flatMap((d) => (d.kind === 'action' ? [d.action] : []));

/**
 * Registers a resource under its catalogue page's API prefix: the usual way a module declares one. `extra` adds the
 * resource's own routes beside the kit's (e.g. GET /options for its form).
 */
export async function registerResource<L extends z.ZodType, C extends z.ZodType, U extends z.ZodType, Row, Saved>(
  app: FastifyInstance,
  family: Family,
  spec: ResourceSpec<L, C, U, Row, Saved>,
  extra?: (scope: FastifyInstance) => void,
): Promise<void> {
  const methods = (['list', 'get', 'create', 'update', 'remove'] as const).filter((m) => spec[m] !== undefined);
  declare(app.db, { kind: 'resource', resource: { key: spec.key, family, entity: spec.entity, prefix: pageApi(spec.key), methods, updateBody: spec.update?.body } });
  await app.register(
    async (scope) => {
      extra?.(scope);
      resourceRoutes(scope, spec);
    },
    { prefix: relativeApi(spec.key, family) },
  );
}

/** Registers the routes of a resource on `app` (inside a plugin with the resource's prefix). */
export function resourceRoutes<L extends z.ZodType, C extends z.ZodType, U extends z.ZodType, Row, Saved>(
  app: FastifyInstance,
  spec: ResourceSpec<L, C, U, Row, Saved>,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db: Db = app.db;
  const read = requireAccess(spec.key, 'view', ...(spec.alsoReadBy ?? []));
  const { list, get, create, update, remove, entity } = spec;
  // The route's part of the OpenAPI document (server/lib/openapi.ts): summary, tag, session and answer.
  const doc = (action: ButtonAction | 'view', what?: string) => kitDoc(spec.key, action, what);

  if (list) {
    r.get('/page', { preValidation: read, serializerCompiler: asIs, schema: { ...doc('view', '列表'), querystring: list.query, response: pageAnswerSchema(spec.response?.row) } }, async (request) =>
      {
        const actor = await requireActor(request);
        const page = await app.readWith(request, async (rdb) => list.handler(rdb, actor, request.query as z.output<L>));
        return ok(spec.sensitive ? await shownPage(db, actor, spec.key, page as Page<object>, spec.sensitive, app.now()) : page);
      },
    );
  }
  if (get) {
    r.get('/:id', { preValidation: read, serializerCompiler: asIs, schema: { ...doc('view', '详情'), params: idParamsSchema, response: answerSchema(spec.response?.detail) } }, async (request) =>
      {
        const actor = await requireActor(request);
        const one = await app.readWith(request, async (rdb) => get(rdb, actor, uuidOr404(request.params.id)));
        // A form loads its record whole (docs/product-rules.md#data-scopes): a view of what it holds, logged.
        if (spec.sensitive && one && typeof one === 'object') await logReveal(db, actor, spec.key, [one], spec.sensitive, 'form', app.now());
        return ok(one);
      },
    );
  }
  if (create) {
    r.post('/', { preValidation: requireAccess(spec.key, 'add'), serializerCompiler: asIs, schema: { ...doc('add'), body: create.body, response: answerSchema(spec.response?.saved) } }, async (request) => {
      const actor = await requireActor(request);
      const saved = await db.transaction(async (tx) => {
        const row = await create.handler(tx, actor, request.body as z.output<C>);
        await audit(tx, actor, { action: 'create', entity, entityId: row.id, after: row });
        return row;
      });
      return ok(saved, request.t(OK_MSG.saved));
    });
  }
  if (update) {
    r.put('/:id', { preValidation: requireAccess(spec.key, 'edit'), serializerCompiler: asIs, schema: { ...doc('edit'), params: idParamsSchema, body: update.body, response: answerSchema(spec.response?.saved) } }, async (request) => {
      const actor = await requireActor(request);
      const id = uuidOr404(request.params.id);
      const saved = await db.transaction(async (tx) => {
        const change = await update.handler(tx, actor, id, request.body as z.output<U>);
        await audit(tx, actor, { action: 'update', entity, entityId: id, before: change.before, after: change.after });
        return change.after;
      });
      return ok(saved, request.t(OK_MSG.saved));
    });
  }
  if (remove) {
    r.delete('/:id', { preValidation: requireAccess(spec.key, 'delete'), serializerCompiler: asIs, schema: { ...doc('delete'), params: idParamsSchema, response: answerSchema(z.null()) } }, async (request) => {
      const actor = await requireActor(request);
      const id = uuidOr404(request.params.id);
      await db.transaction(async (tx) => {
        const before = await remove(tx, actor, id);
        await audit(tx, actor, { action: 'delete', entity, entityId: id, before });
      });
      return ok(null, request.t(OK_MSG.deleted));
    });
  }
}

/** 404 for a row that is missing or belongs to another organisation: the two are never told apart. */
export const notFound = () => new AppError(404, ERR.notFound);

/** A route's `:id` as a uuid, or 404 (anything else cannot name a row). */
export function uuidOr404(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id;
}

/**
 * Optimistic concurrency (docs/product-rules.md#concurrent-edits): the row must still carry the `version` the form
 * loaded. Locks the row for the rest of the transaction and answers it; 404 when it is not the tenant's, 409 when
 * someone saved it since.
 */
export async function lockVersion<T extends PgTable & { id: PgColumn; version: PgColumn }>(
  tx: Tx,
  table: T,
  id: string,
  orgCondition: SQL,
  version: number,
): Promise<Record<string, unknown>> {
  const rows = (await tx.select().from(table as PgTable).where(and(eq(table.id, id), orgCondition)).for('update')) as Record<string, unknown>[];
  const row = rows[0];
  if (!row) throw notFound();
  if (row.version !== version) throw new AppError(409, ERR.staleWrite);
  return row;
}

/** `version = version + 1`, for the SET of a versioned update. */
export function nextVersion(column: PgColumn): SQL {
  return sql`${column} + 1`;
}

/**
 * Refuses deleting a row other rows depend on (docs/product-rules.md#deleting): 409 naming the first dependant
 * found, e.g. { what: 'school:entity.students', count: () => tx.$count(students, eq(students.classId, id)) }.
 * With `names`, the message also lists the first few dependants by name (e.g. a venue's devices).
 */
export async function assertUnused(
  checks: readonly { what: `${string}:${string}`; count(): Promise<number>; names?(): Promise<string[]> }[],
  /** A message of the entity's own (params `what`, `count`), e.g. one that says what to do instead. */
  message: `${string}:${string}` = ERR.inUse,
): Promise<void> {
  for (const check of checks) {
    const n = await check.count();
    if (n === 0) continue;
    if (!check.names) throw new AppError(409, message, { what: check.what, count: n });
    const names = (await check.names()).slice(0, IN_USE_NAMES);
    throw new AppError(409, ERR.inUseNamed, { what: check.what, count: n, names: names.join(', ') + (n > names.length ? ' …' : '') });
  }
}

/** How many dependants a refused delete names. */
const IN_USE_NAMES = 5;
