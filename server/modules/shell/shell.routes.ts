import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { emptySchema, ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { MENU_MANAGEMENT_KEY } from '@/domain/menus/customize';
import { unlockRequestSchema } from '@/domain/shell/lock';
import { isMourningActive, mourningSaveSchema, mourningSettingSchema, mourningStateSchema, type MourningSetting } from '@/domain/shell/mourning';
import { resourceAction, SIGNED_IN } from '../../lib/action';
import { answerSchema, asIs } from '../../lib/openapi';
import { requireActor, requirePermission } from '../../plugins/tenant';
import { assertPlatformOperator } from '../menus/menus.service';
import type { ModuleOptions } from '../module-options';
import { readMourning, saveMourning, unlock } from './shell.service';

/** How long the public mourning answer is kept (in process and by browsers): a switch shows within a minute. */
const MOURNING_CACHE_S = 60;

/**
 * The mourning setting as the public read serves it, kept for MOURNING_CACHE_S per app: the login page of every
 * visitor reads it, and it changes a few times a year. A save here drops it at once; another process within the minute.
 */
function mourningMemo() {
  let kept: { at: number; value: Promise<MourningSetting> } | null = null;
  return {
    get(read: () => Promise<MourningSetting>, now: number) {
      if (!kept || now - kept.at > MOURNING_CACHE_S * 1000) {
        const value = read();
        kept = { at: now, value };
        value.catch(() => (kept = null));
      }
      return kept.value;
    },
    drop: () => (kept = null),
  };
}

type Memo = ReturnType<typeof mourningMemo>;
/** One memo per database handle: the console scope's save and the public scope's read share it. */
const memos = new WeakMap<object, Memo>();
const memoOf = (db: object): Memo => {
  let m = memos.get(db);
  if (!m) memos.set(db, (m = mourningMemo()));
  return m;
};

/**
 * /api/busi/web/shell: the console frame's own calls (docs/product-rules.md#lock-screen, #mourning-mode).
 * - POST /unlock: the lock screen's password check, signed in, no page permission, limited per IP like sign-in.
 * - GET|PUT /mourning: the mourning setting, for platform operators (the menu-management permission held in the top
 *   management organisation, as menu management is). Hand routes like menu management's: a standalone screen's
 *   permission plus being an operator, which the action kit's `Access` cannot name.
 */
export const shellRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, opts) => {
  // A read on the primary, not a kit write: a wrong password must stay counted (committed) while the request fails.
  resourceAction(app, {
    method: 'POST',
    path: '/unlock',
    access: SIGNED_IN,
    summary: '锁屏解锁',
    reads: 'primary',
    body: unlockRequestSchema,
    answer: emptySchema,
    message: OK_MSG.operation,
    config: { rateLimit: { max: opts.limits.loginPerMinute, timeWindow: '1 minute' } },
    read: async (db, me, { body }, { now }) => {
      await unlock(db, me, now, body.password);
      return null;
    },
  });

  const permitted = requirePermission(getCatalogEntry(MENU_MANAGEMENT_KEY)!.permission);
  const operator = async (request: FastifyRequest) => {
    await permitted(request);
    await assertPlatformOperator(app.db, await requireActor(request));
  };
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/mourning', { preValidation: operator, serializerCompiler: asIs, schema: { summary: '哀悼模式设置', response: answerSchema(mourningSettingSchema) } }, async () => ok(await readMourning(app.db)));
  r.put(
    '/mourning',
    { preValidation: operator, serializerCompiler: asIs, schema: { summary: '保存哀悼模式', body: mourningSaveSchema, response: answerSchema(mourningSettingSchema) } },
    async (request) => {
      const actor = await requireActor(request);
      const saved = await app.db.transaction((tx) => saveMourning(tx, actor, request.body, app.now()));
      memoOf(app.db).drop();
      return ok(saved, request.t(OK_MSG.saved));
    },
  );
};

/**
 * /api/oper/web/cs/mourning: whether today is a mourning day, public (the login page reads it before anyone signs
 * in) and cached. A hand route: outside the console scope the action kit serves, as the branding read is.
 */
export const mourningPublicRoutes: FastifyPluginAsync = async (app) => {
  const memo = memoOf(app.db);
  app.withTypeProvider<ZodTypeProvider>().get('/', { serializerCompiler: asIs, schema: { response: answerSchema(mourningStateSchema) } }, async (_request, reply) => {
    const now = app.now();
    const setting = await memo.get(() => readMourning(app.db), now.getTime());
    void reply.header('cache-control', `public, max-age=${MOURNING_CACHE_S}`);
    return ok({ active: isMourningActive(setting, now) });
  });
};
