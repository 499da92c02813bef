import type { FastifyInstance, HTTPMethods, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import type { ButtonAction } from '@/domain/menus/catalog';
import type { AuditAction, AuditEntity } from '@/domain/platform/audit';
import type { DbOrTx, Tx } from '../db/client';
import { requireAccess, requireActor, type Actor } from '../plugins/tenant';
import { audit } from './audit';
import { answerSchema, asIs, kitDoc } from './openapi';
import { declare, uuidOr404 } from './resource';

/**
 * An action of a screen that is not list / get / save / delete (end a meet, publish a wiki page, draw lanes…) as one
 * declaration, beside `registerResource` (docs/adding-a-screen.md#actions). The route runs auth (the console scope's
 * hook) → catalogue permission → zod → uuid params → handler; a write runs in one transaction with its audit row, a read
 * goes through `app.readWith`; the answer is the envelope with the write's OK message.
 *
 *   resourceAction(scope, {
 *     method: 'POST', path: '/:id/end', access: [key, 'end'], params: idParamsSchema,
 *     entity: 'meet', audit: 'end',
 *     write: (tx, actor, { params }) => endMeet(tx, actor, params.id, app.now()),
 *   });
 */

/** A catalogue permission: page key, button (or 'view'), then alternatives any of which also grants it. */
export type Access = readonly [key: string, action: ButtonAction | 'view', ...alternatives: (readonly [string, ButtonAction | 'view'])[]];

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler gets: the validated params (every `id` / `…Id` already a uuid, else 404), query and body. */
export interface ActionInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

/** What a write did: the row before and after (the audit row), and what the route answers when not `after`. */
export interface ActionChange<T = unknown> {
  before?: unknown;
  after: T;
  /** The audited row when it is not the path's `:id` (e.g. a created row, a photo of the meet). */
  entityId?: string;
  /** The answer when it is not `after` (e.g. the ids a sign-up made while the audit row keeps the whole body). */
  answer?: unknown;
  /**
   * False when the kit writes no audit row: the write changed nothing, or the service wrote its own rows (one per
   * student of a transfer, one per batch of face photos) because no single row id names the change.
   */
  audited?: boolean;
}

interface ActionBase<P, Q, B> {
  method: Extract<HTTPMethods, 'GET' | 'POST' | 'PUT' | 'DELETE'>;
  /** Relative to the scope it is declared in (a resource's prefix), e.g. '/:id/end'. */
  path: string;
  /** The permission; a list of them when every one is needed (e.g. a board link needs the board and publishing). */
  access: Access | readonly Access[];
  params?: P;
  query?: Q;
  body?: B;
  /** The OK message key: writes default to `saved` (`deleted` for DELETE), reads to none; null for none. */
  message?: `${string}:${string}` | null;
  /** The answer's data for the OpenAPI document (/api/docs), zod from src/domain; it describes, never filters. */
  answer?: z.ZodType;
  /** The document's summary after the page's name, when the button's label alone does not say what the route does. */
  summary?: string;
}

export interface ReadActionSpec<P, Q, B, R> extends ActionBase<P, Q, B> {
  read(db: DbOrTx, actor: Actor, input: ActionInput<P, Q, B>): Promise<R>;
}

export interface WriteActionSpec<P, Q, B> extends ActionBase<P, Q, B> {
  /** Entity of the audit row (its id is the path's `:id` unless the change names another). */
  entity: AuditEntity;
  /** Action of the audit row, or chosen by the input (publish / unpublish). */
  audit: AuditAction | ((input: ActionInput<P, Q, B>) => AuditAction);
  write(tx: Tx, actor: Actor, input: ActionInput<P, Q, B>): Promise<ActionChange>;
  /** 'nothing' answers null (the screen reloads what it shows); default the change's `after`. */
  answers?: 'after' | 'nothing';
}

/** What a `resourceAction` declared, as the kit-contract suite reads it. */
export interface DeclaredAction {
  method: ActionBase<unknown, unknown, unknown>['method'];
  /** The full URL pattern (`/api/busi/web/k12/sportsMeet/:id/end`). */
  url: string;
  access: readonly Access[];
  kind: 'read' | 'write';
  entity?: AuditEntity;
  /** The audit action, when it does not depend on the input. */
  audit?: AuditAction;
  params?: z.ZodType;
  body?: z.ZodType;
}

const isUuidParam = (name: string) => name === 'id' || name.endsWith('Id');

/** Declares an action on `app` (usually the `extra` scope of `registerResource`, whose prefix the path is relative to). */
export function resourceAction<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, R = unknown>(
  app: FastifyInstance,
  spec: ReadActionSpec<P, Q, B, R> | WriteActionSpec<P, Q, B>,
): void {
  const accesses: readonly Access[] = typeof spec.access[0] === 'string' ? [spec.access as Access] : (spec.access as readonly Access[]);
  const write = 'write' in spec ? spec : undefined;
  const url = `${app.prefix}${spec.path === '/' ? '' : spec.path}` || '/';
  declare(app.db, {
    kind: 'action',
    action: {
      method: spec.method,
      url,
      access: accesses,
      kind: write ? 'write' : 'read',
      entity: write?.entity,
      audit: write && typeof write.audit === 'string' ? write.audit : undefined,
      params: spec.params,
      body: spec.body,
    },
  });
  const message = spec.message === undefined ? (write ? (spec.method === 'DELETE' ? OK_MSG.deleted : OK_MSG.saved) : null) : spec.message;
  const preValidation = accesses.map(([key, action, ...alternatives]) => requireAccess(key, action, ...alternatives) as preValidationAsyncHookHandler);

  app.withTypeProvider<ZodTypeProvider>().route({
    method: spec.method,
    url: spec.path,
    preValidation,
    serializerCompiler: asIs,
    schema: {
      ...kitDoc(accesses[0][0], accesses[0][1], spec.summary),
      ...(spec.params && { params: spec.params }),
      ...(spec.query && { querystring: spec.query }),
      ...(spec.body && { body: spec.body }),
      response: answerSchema(write?.answers === 'nothing' ? z.null() : spec.answer),
    },
    handler: async (request) => {
      const actor = await requireActor(request);
      // A path id that is not a uuid cannot name a row: 404, as for another organisation's row.
      const params = spec.params
        ? Object.fromEntries(Object.entries(request.params as Record<string, string>).map(([k, v]) => [k, isUuidParam(k) ? uuidOr404(v) : v]))
        : undefined;
      const input = { params, query: request.query, body: request.body } as ActionInput<P, Q, B>;
      const answer = (data: unknown) => ok(data, message ? request.t(message) : '');
      if (!write) {
        const { read } = spec as ReadActionSpec<P, Q, B, R>;
        return answer(await app.readWith(request, (db) => read(db, actor, input)));
      }
      const result = await app.db.transaction(async (tx) => {
        const change = await write.write(tx, actor, input);
        if (change.audited !== false) {
          const action = typeof write.audit === 'function' ? write.audit(input) : write.audit;
          const entityId = change.entityId ?? (params as { id?: string } | undefined)?.id;
          if (!entityId) throw new Error(`${spec.method} ${url}: the audit row needs an :id or the change's entityId`);
          await audit(tx, actor, { action, entity: write.entity, entityId, before: change.before, after: change.after });
        }
        return change;
      });
      if (write.answers === 'nothing') return answer(null);
      return answer('answer' in result ? result.answer : result.after);
    },
  });
}
