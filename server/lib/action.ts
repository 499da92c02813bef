import type { Readable } from 'node:stream';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, HTTPMethods, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emptySchema, ok } from '@/domain/api';
import { ERR, OK_MSG } from '@/domain/errors';
import type { ButtonAction } from '@/domain/menus/catalog';
import { pageAccess } from '@/domain/menus/access';
import type { AuditAction, AuditEntity } from '@/domain/platform/audit';
import type { Locale } from '@/domain/constants';
import type { Db, Tx } from '../db/client';
import type { SessionInfo } from '../plugins/auth';
import { requireAccess, requireActor, type Actor } from '../plugins/tenant';
import { AppError } from './app-error';
import { audit, auditMany } from './audit';
import { answerSchema, asIs, fileAnswerSchema, kitDoc } from './openapi';
import { declare, uuidOr404 } from './resource';
import { sendFile, sendXlsx, uploadedFile, type UploadedFile } from './spreadsheet/http';
import { listSheetWorkbook, requestedColumns, type ListSheet } from './list-export';
import { checkExportRows, registerApprovedExport, type ExportApproval } from './export-approval';
import { withExportStamp } from './spreadsheet/export-stamp';
import { users } from '../db/schema/auth';
import { changesSynced } from '../plugins/changes';
import type { FeedSync } from './change-feed';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';

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

/** Signed in, no catalogue permission (the caller's own data: user info, role switch, the caller's jobs). */
export const SIGNED_IN = 'signed-in';
type Permission = Access | readonly Access[];

/** Who calls a `'signed-in'` action: the session's user; `actor()` loads the present role (403 when the user has none). */
export interface SignedIn extends SessionInfo {
  actor(): Promise<Actor>;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler gets: the validated params (every `id` / `…Id` already a uuid, else 404), query and body. */
export interface ActionInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The uploaded file of an `upload: true` action (multipart, .xlsx or any: the handler checks its kind). */
  file?: UploadedFile;
}

/** What a handler may need of the request besides its input: the translator and language of the caller, and the clock. */
export interface ActionContext {
  /** Translates an 'ns:key' into the request's language (a workbook's headers, a menu's names). */
  t: FastifyRequest['t'];
  locale: Locale;
  /** `app.now()` when the request arrived (test clocks included). */
  now: Date;
  /** The change feed and the request's sync with it, for a read that keeps values per version (keptPerVersion, server/lib/change-feed.ts). */
  changes: () => FeedSync;
}

/**
 * A file a read answers instead of the envelope: a workbook (`.xlsx`, sent as `sendXlsx` does) or any other body with
 * its content type; the name travels as RFC 5987 `filename*`, never cached.
 */
export type FileAnswer =
  | { workbook: Buffer | Readable; fileName: string; headers?: Record<string, string> }
  | { body: Buffer | Readable; fileName: string; contentType: string; headers?: Record<string, string> }
  /** A list export built from the list's columns: the kit writes the columns the list shows (`?columns=`, server/lib/list-export.ts). */
  | { sheet: ListSheet; fileName: string; headers?: Record<string, string> };

/** What a write did: the row before and after (the audit row), and what the route answers when not `after`. */
export interface ActionChange<T = unknown> {
  before?: unknown;
  after: T;
  /** The audited row when it is not the path's `:id` (e.g. a created row, a photo of the meet). */
  entityId?: string;
  /** A batch (set invalid / valid): one audit row per id, each with `before` and `after`; none when empty. */
  entityIds?: readonly string[];
  /** The answer when it is not `after` (e.g. the ids a sign-up made while the audit row keeps the whole body). */
  answer?: unknown;
  /**
   * False when the kit writes no audit row: the write changed nothing, or the service wrote its own rows (one per
   * student of a transfer, one per batch of face photos) because no single row id names the change.
   */
  audited?: boolean;
}

interface ActionBase<P, Q, B, A> {
  method: Extract<HTTPMethods, 'GET' | 'POST' | 'PUT' | 'DELETE'>;
  /** Relative to the scope it is declared in (a resource's prefix), e.g. '/:id/end'. */
  path: string;
  /**
   * The permission; a list of them when every one is needed (e.g. a board link needs the board and publishing); or
   * `'signed-in'` for the caller's own data, behind no catalogue page (the handler then gets a `SignedIn`).
   */
  access: A;
  params?: P;
  query?: Q;
  body?: B;
  /** A multipart upload of one file (`@fastify/multipart` registered on the scope): `input.file`; none is 400 import:fileRequired. */
  upload?: boolean;
  /**
   * 'primary': the read runs on `app.db`, never the replica: what the caller reads was written by someone else's
   * request (a job's progress, which the caller's read-your-writes cookie does not cover) or the read itself may write.
   */
  reads?: 'primary';
  /** The route's config, e.g. the read cache's `readsTables` (server/plugins/read-cache.ts) or a `rateLimit`. */
  config?: FastifyContextConfig;
  /** The OK message key: writes default to `saved` (`deleted` for DELETE), reads to none; null for none. */
  message?: `${string}:${string}` | null;
  /** The answer's data for the OpenAPI document (/api/docs), zod from src/domain; it describes, never filters. */
  answer?: z.ZodType;
  /** The document's summary after the page's name, when the button's label alone does not say what the route does (required when signed-in). */
  summary?: string;
}

export interface ReadActionSpec<P, Q, B, R, W = Actor, A = Permission> extends ActionBase<P, Q, B, A> {
  read(db: Db, actor: W, input: ActionInput<P, Q, B>, ctx: ActionContext): Promise<R>;
  answers?: 'data';
}

/** A read that answers a file (a workbook export, a template): no envelope, the document says it is a file. */
export interface FileActionSpec<P, Q, B, W = Actor, A = Permission> extends ActionBase<P, Q, B, A> {
  answers: 'file';
  read(db: Db, actor: W, input: ActionInput<P, Q, B>, ctx: ActionContext): Promise<FileAnswer>;
  /**
   * An export of personal data: above the organisation's `exportApprovalRows` it is refused (409, field
   * `exportApproval`) and goes through the approval flow (server/lib/export-approval.ts).
   */
  approval?: ExportApproval<ActionInput<P, Q, B>>;
}

export interface WriteActionSpec<P, Q, B, W = Actor, A = Permission> extends ActionBase<P, Q, B, A> {
  /** Entity of the audit row (its id is the path's `:id` unless the change names another). */
  entity: AuditEntity;
  /** Action of the audit row, or chosen by the input (publish / unpublish). */
  audit: AuditAction | ((input: ActionInput<P, Q, B>) => AuditAction);
  write(tx: Tx, actor: W, input: ActionInput<P, Q, B>, ctx: ActionContext): Promise<ActionChange>;
  /** 'nothing' answers null (the screen reloads what it shows); default the change's `after`. */
  answers?: 'after' | 'nothing';
}

/**
 * Starts a job (server/lib/jobs.ts, docs/product-rules.md#jobs): `enqueue` checks what can be refused at once and
 * answers `app.jobs.enqueue(kind, actor, input, ctx.locale, guard)`'s id; the route answers `{ id }`. No transaction
 * and no audit row of the kit: the job writes its own when it runs.
 */
export interface JobActionSpec<P, Q, B, W = Actor, A = Permission> extends ActionBase<P, Q, B, A> {
  enqueue(db: Db, actor: W, input: ActionInput<P, Q, B>, ctx: ActionContext): Promise<string>;
  /**
   * A job that exports personal data: above the organisation's `exportApprovalRows` the start is refused (409, field
   * `exportApproval`) like a file action's; the approved download builds the same file with `file` from the kept body
   * (streamed to the requester, no job: the approval already waited).
   */
  approval?: ExportApproval<ActionInput<P, Q, B>> & { file(db: Db, actor: Actor, input: ActionInput<P, Q, B>, ctx: ActionContext): Promise<FileAnswer> };
}

/** Every kind of action, for a caller `W` under access `A`. */
export type ActionSpec<P, Q, B, R, W = Actor, A = Permission> =
  | ReadActionSpec<P, Q, B, R, W, A>
  | FileActionSpec<P, Q, B, W, A>
  | WriteActionSpec<P, Q, B, W, A>
  | JobActionSpec<P, Q, B, W, A>;

/** What a `resourceAction` declared, as the kit-contract suite reads it. */
export interface DeclaredAction {
  method: ActionBase<unknown, unknown, unknown, unknown>['method'];
  /** The full URL pattern (`/api/busi/web/k12/sportsMeet/:id/end`). */
  url: string;
  /** The permissions; none when `signedIn`. */
  access: readonly Access[];
  /** `access: 'signed-in'`: any signed-in caller, no 403 to check. */
  signedIn: boolean;
  kind: 'read' | 'file' | 'write' | 'job';
  upload: boolean;
  entity?: AuditEntity;
  /** The audit action, when it does not depend on the input. */
  audit?: AuditAction;
  params?: z.ZodType;
  body?: z.ZodType;
}

/** The permission code of a page's view or button (as `requireAccess` checks it). */
const codeOf = (key: string, action: ButtonAction | 'view') => (action === 'view' ? pageAccess(key).view : pageAccess(key).need(action));

const isUuidParam = (name: string) => name === 'id' || name.endsWith('Id');

/** Declares an action on `app` (usually the `extra` scope of `registerResource`, whose prefix the path is relative to). */
export function resourceAction<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, R = unknown>(
  app: FastifyInstance,
  spec: ActionSpec<P, Q, B, R, SignedIn, typeof SIGNED_IN>,
): void;
export function resourceAction<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, R = unknown>(
  app: FastifyInstance,
  spec: ActionSpec<P, Q, B, R>,
): void;
export function resourceAction<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined, R>(
  app: FastifyInstance,
  spec: ActionSpec<P, Q, B, R, Actor | SignedIn, Permission | typeof SIGNED_IN>,
): void {
  const signedIn = spec.access === SIGNED_IN;
  // The document names a route by its page and button; a signed-in one has neither, so it says what it does.
  if (signedIn && !spec.summary) throw new Error(`${spec.method} ${spec.path}: a signed-in action needs a summary`);
  const accesses: readonly Access[] = signedIn ? [] : typeof (spec.access as Permission)[0] === 'string' ? [spec.access as Access] : (spec.access as readonly Access[]);
  const write = 'write' in spec ? spec : undefined;
  const job = 'enqueue' in spec ? spec : undefined;
  const file = 'answers' in spec && spec.answers === 'file' ? (spec as FileActionSpec<P, Q, B, Actor | SignedIn>) : undefined;
  const kind = write ? 'write' : job ? 'job' : file ? 'file' : 'read';
  const url = `${app.prefix}${spec.path === '/' ? '' : spec.path}` || '/';
  declare(app.db, {
    kind: 'action',
    action: {
      method: spec.method,
      url,
      access: accesses,
      signedIn,
      kind,
      upload: spec.upload === true,
      entity: write?.entity,
      audit: write && typeof write.audit === 'string' ? write.audit : undefined,
      params: spec.params,
      body: spec.body,
    },
  });
  // An export of personal data that opted into approval is kept under its page so the approval can run it later.
  const approval = file?.approval ?? job?.approval;
  if (approval) {
    const first = accesses[0];
    if (!first) throw new Error(`${spec.method} ${url}: an export with approval needs a page`);
    const read = job?.approval ? job.approval.file : file!.read;
    registerApprovedExport(app.db, {
      screen: first[0],
      url,
      // A job's filter is its body; kept (and re-read) as the request's query.
      query: job ? spec.body : spec.query,
      params: spec.params,
      may: (actor) => accesses.every(([key, action, ...alternatives]) => [[key, action] as const, ...alternatives].some(([k, a]) => actor.permissions.has(codeOf(k, a)))),
      rows: (db, actor, { query, params }) => approval.rows(db, actor, (job ? { params, query: undefined, body: query } : { params, query, body: undefined }) as ActionInput<P, Q, B>),
      // The approved file: the kept input read again by the same read, on the primary (docs/decisions/059).
      run: async (request, reply, actor, kept) => {
        const schema = job ? spec.body : spec.query;
        const parsed = schema ? schema.parse(kept.query) : undefined;
        const ids = Object.fromEntries(Object.entries(kept.params ?? {}).map(([k, v]) => [k, isUuidParam(k) ? uuidOr404(v) : v]));
        const params = spec.params ? spec.params.parse(ids) : undefined;
        const input = (job ? { params, query: undefined, body: parsed } : { params, query: parsed, body: undefined }) as ActionInput<P, Q, B>;
        const shown = requestedColumns(`/?${new URLSearchParams(kept.query).toString()}`);
        return sendRead(request, reply, actor, input, shown, (on) => on(app.db), read);
      },
    });
  }
  /** Reads the file and sends it, with the exporter and time written in it (server/lib/export-approval.ts). */
  async function sendRead(
    request: FastifyRequest,
    reply: FastifyReply,
    who: Actor | SignedIn,
    input: ActionInput<P, Q, B>,
    shown: string[] | undefined,
    readOn: <T>(read: (db: Db) => Promise<T>) => Promise<T>,
    fileRead: (db: Db, who: Actor, input: ActionInput<P, Q, B>, ctx: ActionContext) => Promise<FileAnswer>,
  ) {
    const ctx: ActionContext = { t: request.t, locale: request.locale, now: app.now(), changes: () => ({ feed: app.changes, synced: changesSynced(app, request) }) };
    const [me] = await app.db.select({ name: users.name, account: users.accountNum }).from(users).where(eq(users.id, who.userId)).limit(1);
    return withExportStamp({ name: me?.name ?? '', account: me?.account ?? '', at: ctx.now }, async () => {
      const sent = await readOn((db) => fileRead(db, who as Actor, input, ctx));
      if (sent.headers) void reply.headers(sent.headers);
      if ('sheet' in sent) return sendXlsx(reply, listSheetWorkbook(sent.sheet, shown), sent.fileName);
      return 'workbook' in sent ? sendXlsx(reply, sent.workbook, sent.fileName) : sendFile(reply, sent.body, sent.fileName, sent.contentType);
    });
  }
  const message = spec.message === undefined ? (write ? (spec.method === 'DELETE' ? OK_MSG.deleted : OK_MSG.saved) : null) : spec.message;
  // Signed in only: the console scope's hook has authenticated the session; no catalogue permission to check.
  const preValidation = accesses.map(([key, action, ...alternatives]) => requireAccess(key, action, ...alternatives) as preValidationAsyncHookHandler);
  const [docKey, docAction] = accesses[0] ?? [];
  const data = write?.answers === 'nothing' ? emptySchema : job ? (spec.answer ?? jobStarted) : spec.answer;

  app.withTypeProvider<ZodTypeProvider>().route({
    method: spec.method,
    url: spec.path,
    preValidation,
    serializerCompiler: asIs,
    ...(spec.config && { config: spec.config }),
    schema: {
      ...(docKey ? kitDoc(docKey, docAction!, spec.summary) : { security: [{ session: [] }], ...(spec.summary && { summary: spec.summary }) }),
      ...(spec.params && { params: spec.params }),
      ...(spec.query && { querystring: spec.query }),
      ...(spec.body && { body: spec.body }),
      response: file ? fileAnswerSchema() : answerSchema(data),
    },
    handler: async (request, reply) => {
      const who = signedIn ? signedInOf(request) : await requireActor(request);
      // A path id that is not a uuid cannot name a row: 404, as for another organisation's row.
      const params = spec.params
        ? Object.fromEntries(Object.entries(request.params as Record<string, string>).map(([k, v]) => [k, isUuidParam(k) ? uuidOr404(v) : v]))
        : undefined;
      const input = { params, query: request.query, body: request.body } as ActionInput<P, Q, B>;
      if (spec.upload) input.file = await uploadedFile(request);
      const ctx: ActionContext = { t: request.t, locale: request.locale, now: app.now(), changes: () => ({ feed: app.changes, synced: changesSynced(app, request) }) };
      const answer = (out: unknown) => ok(out, message ? request.t(message) : '');
      const readOn = <T>(read: (db: Db) => Promise<T>) => (spec.reads === 'primary' ? read(app.db) : app.readWith(request, read));
      if (file) {
        // Checked before the read: a bad `columns` is refused without reading anything.
        const shown = requestedColumns(request.url);
        // Above the organisation's threshold an export of personal data needs an approval (docs/product-rules.md#personal-data-access).
        if (file.approval) await checkExportRows(app.db, who as Actor, await readOn((db) => file.approval!.rows(db, who as Actor, input)), accesses[0]![0], pathOf(request));
        return sendRead(request, reply, who, input, shown, readOn, file.read as (db: Db, who: Actor, input: ActionInput<P, Q, B>, ctx: ActionContext) => Promise<FileAnswer>);
      }
      if (job) {
        if (job.approval) await checkExportRows(app.db, who as Actor, await readOn((db) => job.approval!.rows(db, who as Actor, input)), accesses[0]![0], pathOf(request));
        return answer({ id: await job.enqueue(app.db, who, input, ctx) });
      }
      if (!write) {
        const { read } = spec as ReadActionSpec<P, Q, B, R, Actor | SignedIn>;
        return answer(await readOn((db) => read(db, who, input, ctx)));
      }
      const result = await app.db.transaction(async (tx) => {
        const change = await write.write(tx, who, input, ctx);
        if (change.audited !== false) {
          const actor = 'actor' in who ? await who.actor() : who;
          const action = typeof write.audit === 'function' ? write.audit(input) : write.audit;
          const row = { action, entity: write.entity, before: change.before, after: change.after };
          if (change.entityIds) {
            await auditMany(tx, actor, change.entityIds.map((entityId) => ({ ...row, entityId })));
          } else {
            const entityId = change.entityId ?? (params as { id?: string } | undefined)?.id;
            if (!entityId) throw new Error(`${spec.method} ${url}: the audit row needs an :id or the change's entityId`);
            await audit(tx, actor, { ...row, entityId });
          }
        }
        return change;
      });
      if (write.answers === 'nothing') return answer(null);
      return answer('answer' in result ? result.answer : result.after);
    },
  });
}

/** A job action's answer: the job's id, which the tasks panel follows (GET /api/busi/web/jobs/:id). */
const jobStarted = z.object({ id: z.string() });

/** The request's path without its query: names an export and its params for the approval request. */
const pathOf = (request: FastifyRequest) => request.url.split('?')[0];

function signedInOf(request: FastifyRequest): SignedIn {
  if (!request.session) throw new AppError(401, ERR.sessionExpired);
  return { ...request.session, actor: () => requireActor(request) };
}
