import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, type Page } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import { pageApi, type Family } from '@/domain/menus/access';
import type { ButtonAction } from '@/domain/menus/catalog';
import { auditObjectName, type AuditAction, type AuditEntity } from '@/domain/platform/audit';
import type { Db, DbOrTx, Tx } from '../db/client';
import { requireAccess, requireActor, type Actor } from '../plugins/tenant';
import { audit } from './audit';
import { answerSchema, asIs, kitDoc, labelOf, pageAnswerSchema } from './openapi';
import { relativeApi, uuidOr404 } from './resource';

/**
 * The server half of `LinkedListScreen` (src/components/list/linked-list-screen.tsx): the records linked to one
 * owner record (a role's members, a department's members, a venue's devices) as one declaration beside the owner's
 * `registerResource`. Every route needs the owner page's button `action`; the owner is looked up first, so a missing
 * owner or another organisation's answers 404 before anything else is read or written.
 *
 *   GET    {prefix}/:id/{path}             the linked records, a page at a time ('members' query schema)
 *   GET    {prefix}/:id/candidates         records that may be linked (at most CANDIDATES_MAX, for the pick dialog)
 *   POST   {prefix}/:id/{path}             link many   (body `{ [ids]: [...] }`)
 *   DELETE {prefix}/:id/{path}             unlink many (the same body)
 *   DELETE {prefix}/:id/{path}/:memberId   unlink one  (the list's row action)
 *
 * A write runs in one transaction with its audit row (entity = the owner's, entityId = the owner). Linking is
 * idempotent: records already linked are left alone, and a request that links nothing new writes nothing, not even a
 * log row. Unlinking a record that is not linked is 404 and the whole request changes nothing.
 */

/** Most candidates one search answers: the pick dialog narrows by keyword, it does not page. */
export const CANDIDATES_MAX = 50;

/** What a link or unlink changed. */
export interface LinkChange {
  /** The records this request linked (or unlinked): none when nothing changed, and then no audit row is written. */
  records: readonly unknown[];
  /** The log's before, when it is more than "not linked" (e.g. the venues the devices left); an unlink's `records` by default. */
  before?: unknown;
  /** The log's after; a link's `records` by default. */
  after?: unknown;
}

export interface LinkedSpec<Owner extends { id: string }, MQ extends z.ZodType, CQ extends z.ZodType, B extends z.ZodObject, Member, Candidate> {
  /** Catalogue page of the owner (the API prefix); its button `action` guards every route. */
  key: string;
  action: ButtonAction;
  /** The owner's entity in the audit log (src/domain/platform/audit.ts). */
  entity: AuditEntity;
  /** Path segment of the linked records under an owner: 'members', 'devices'. */
  path: string;
  /** The tenant's owner row, or throw `notFound()` (missing and another organisation's are never told apart). */
  owner(db: DbOrTx, actor: Actor, id: string): Promise<Owner>;
  /** The linked records, paged and filtered (query schema from src/domain, a `listQuery`). */
  members: { query: MQ; handler(db: DbOrTx, actor: Actor, owner: Owner, query: z.output<MQ>): Promise<Page<Member>> };
  /** Records of the tenant that may be linked and are not yet (at most CANDIDATES_MAX). */
  candidates: { query: CQ; handler(db: DbOrTx, actor: Actor, owner: Owner, query: z.output<CQ>): Promise<Candidate[]> };
  /**
   * Links records: `body` (from src/domain) carries their ids in the array field `ids`; the handler links those not
   * linked yet and answers them. Another organisation's record is 404.
   */
  link: { body: B; ids: keyof z.output<B> & string; audit: AuditAction; handler(tx: Tx, actor: Actor, owner: Owner, ids: readonly string[]): Promise<LinkChange> };
  /** Unlinks records; one not linked to this owner is 404 (throw `notFound()`), and nothing is unlinked. */
  unlink: { audit: AuditAction; handler(tx: Tx, actor: Actor, owner: Owner, ids: readonly string[]): Promise<LinkChange> };
  /** The unlink answer's message (default "deleted"; "saved" where the linked record stays, e.g. a detached device). */
  unlinked?: (typeof OK_MSG)[keyof typeof OK_MSG];
  /**
   * The answers' data for the OpenAPI document (/api/docs), zod from src/domain: a linked record (a row of the page;
   * the link answers those it linked) and a candidate. They describe, never filter (server/lib/openapi.ts).
   */
  response?: { member?: z.ZodType; linked?: z.ZodType; candidate?: z.ZodType };
}

/** What a `registerLinked` declared, as the kit-contract test suite reads it. */
export interface DeclaredLinked {
  key: string;
  family: Family;
  action: ButtonAction;
  entity: AuditEntity;
  /** `/api/busi/web/{family}/...`: the owner page's API prefix. */
  prefix: string;
  path: string;
  /** The link body's array field. */
  ids: string;
  linkAudit: AuditAction;
  unlinkAudit: AuditAction;
}

// Keyed by the app's database handle like the resource registry (server/lib/resource.ts).
const declared = new WeakMap<object, DeclaredLinked[]>();

/** Every linked-records declaration the app built on `db` made (tests/server/kit-contract.test.ts). */
export const declaredLinked = (db: Db): readonly DeclaredLinked[] => declared.get(db) ?? [];

const memberParams = idParamsSchema.extend({ memberId: z.string().max(64) });

/** Registers the linked-records routes of an owner page under its API prefix (beside its `registerResource`). */
export async function registerLinked<Owner extends { id: string }, MQ extends z.ZodType, CQ extends z.ZodType, B extends z.ZodObject, Member, Candidate>(
  app: FastifyInstance,
  family: Family,
  spec: LinkedSpec<Owner, MQ, CQ, B, Member, Candidate>,
): Promise<void> {
  const list = declared.get(app.db) ?? [];
  list.push({
    key: spec.key,
    family,
    action: spec.action,
    entity: spec.entity,
    prefix: pageApi(spec.key),
    path: spec.path,
    ids: spec.link.ids,
    linkAudit: spec.link.audit,
    unlinkAudit: spec.unlink.audit,
  });
  declared.set(app.db, list);
  await app.register(async (scope) => linkedRoutes(scope, spec), { prefix: relativeApi(spec.key, family) });
}

function linkedRoutes<Owner extends { id: string }, MQ extends z.ZodType, CQ extends z.ZodType, B extends z.ZodObject, Member, Candidate>(
  app: FastifyInstance,
  spec: LinkedSpec<Owner, MQ, CQ, B, Member, Candidate>,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db: Db = app.db;
  const access = requireAccess(spec.key, spec.action);
  const { path, members, candidates, link, unlink, entity } = spec;
  // The routes' part of the OpenAPI document (server/lib/openapi.ts).
  const doc = (what: string) => kitDoc(spec.key, spec.action, `${labelOf(spec.action)} · ${what}`);

  /** Looks the owner up (404 across tenants), runs the write and logs it, all in one transaction. */
  const write = (actor: Actor, id: string, kind: 'link' | 'unlink', run: (tx: Tx, owner: Owner) => Promise<LinkChange>) =>
    db.transaction(async (tx) => {
      const owner = await spec.owner(tx, actor, id);
      const change = await run(tx, owner);
      // Nothing new linked: an idempotent no-op leaves no trace either.
      if (change.records.length) {
        const [before, after] = kind === 'link' ? [change.before, change.after ?? change.records] : [change.before ?? change.records, change.after];
        const action = kind === 'link' ? link.audit : unlink.audit;
        await audit(tx, actor, { action, entity, entityId: owner.id, entityName: auditObjectName(owner.id, owner, null), before, after });
      }
      return change;
    });
  const described = spec.response ?? {};
  const listOf = (row: z.ZodType | undefined) => (row ? z.array(row) : undefined);
  const idsOf = (body: unknown) => [...new Set((body as Record<string, string[]>)[link.ids])];

  r.get(`/:id/${path}`, { preValidation: access, serializerCompiler: asIs, schema: { ...doc('列表'), params: idParamsSchema, querystring: members.query, response: pageAnswerSchema(described.member) } }, async (request) =>
    ok(
      await app.readWith(request, async (rdb) => {
        const actor = await requireActor(request);
        const owner = await spec.owner(rdb, actor, uuidOr404(request.params.id));
        return members.handler(rdb, actor, owner, request.query as z.output<MQ>);
      }),
    ),
  );
  r.get('/:id/candidates', { preValidation: access, serializerCompiler: asIs, schema: { ...doc('可选'), params: idParamsSchema, querystring: candidates.query, response: answerSchema(listOf(described.candidate)) } }, async (request) =>
    ok(
      await app.readWith(request, async (rdb) => {
        const actor = await requireActor(request);
        const owner = await spec.owner(rdb, actor, uuidOr404(request.params.id));
        return candidates.handler(rdb, actor, owner, request.query as z.output<CQ>);
      }),
    ),
  );
  r.post(`/:id/${path}`, { preValidation: access, serializerCompiler: asIs, schema: { ...doc('关联'), params: idParamsSchema, body: link.body, response: answerSchema(listOf(described.linked ?? described.member)) } }, async (request) => {
    const actor = await requireActor(request);
    const ids = idsOf(request.body);
    const change = await write(actor, uuidOr404(request.params.id), 'link', (tx, owner) => link.handler(tx, actor, owner, ids));
    return ok(change.records, request.t(OK_MSG.saved));
  });
  r.delete(`/:id/${path}`, { preValidation: access, serializerCompiler: asIs, schema: { ...doc('移除'), params: idParamsSchema, body: link.body, response: answerSchema(z.null()) } }, async (request) => {
    const actor = await requireActor(request);
    const ids = idsOf(request.body);
    await write(actor, uuidOr404(request.params.id), 'unlink', (tx, owner) => unlink.handler(tx, actor, owner, ids));
    return ok(null, request.t(spec.unlinked ?? OK_MSG.deleted));
  });
  r.delete(`/:id/${path}/:memberId`, { preValidation: access, serializerCompiler: asIs, schema: { ...doc('移除一条'), params: memberParams, response: answerSchema(z.null()) } }, async (request) => {
    const actor = await requireActor(request);
    const memberId = uuidOr404(request.params.memberId);
    await write(actor, uuidOr404(request.params.id), 'unlink', (tx, owner) => unlink.handler(tx, actor, owner, [memberId]));
    return ok(null, request.t(spec.unlinked ?? OK_MSG.deleted));
  });
}
