import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import type { AppAccountGiven } from '@/domain/people/app-accounts';
import { resetPasswordSchema, userStatusSchema } from '@/domain/users/users';
import type { Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { parents, students } from '../../db/schema/school';
import { checkAccountUnique, oneTimePassword, resetAccountPassword } from '../../lib/accounts';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { hashPassword, sha256Hex } from '../../lib/password';
import { uuidOr404 } from '../../lib/resource';
import { endSessions } from '../sso/sso.service';
import { requireAccess, requireActor, type Actor } from '../../plugins/tenant';
import { parentById } from './parent.service';
import { studentById } from './student.service';

/** Whose app account a screen manages: the person (looked up in the actor's tenancy and scope; 404 otherwise). */
interface Holder {
  name: string;
  gender: 'male' | 'female' | 'unknown';
  /** The login account a new app account gets. */
  login: string;
  userId: string | null;
  link(tx: Tx, userId: string): Promise<void>;
}

const holders = {
  student: async (tx: Tx, actor: Actor, id: string): Promise<Holder> => {
    const s = await studentById(tx, actor, id);
    const [row] = await tx.select({ userId: students.userId }).from(students).where(eq(students.id, id));
    return { name: s.name, gender: s.gender, login: s.regNo, userId: row.userId, link: async (t, userId) => void (await t.update(students).set({ userId }).where(eq(students.id, id))) };
  },
  parent: async (tx: Tx, actor: Actor, id: string): Promise<Holder> => {
    const p = await parentById(tx, actor, id);
    const [row] = await tx.select({ userId: parents.userId }).from(parents).where(eq(parents.id, id));
    return { name: p.name, gender: p.gender, login: p.mobile, userId: row.userId, link: async (t, userId) => void (await t.update(parents).set({ userId }).where(eq(parents.id, id))) };
  },
};

function accountOf(h: Holder): string {
  if (!h.userId) throw new AppError(409, 'people:appAccount.none');
  return h.userId;
}

/**
 * `POST /:id/app-account` (give one), `PUT /:id/app-account/status` and `PUT /:id/app-account/password` of the
 * student and parent screens (docs/product-rules.md#app-accounts), under the page's edit button; each in one
 * transaction with its audit row (never a password).
 */
export function appAccountRoutes(scope: FastifyInstance, spec: { key: string; entity: 'student' | 'parent'; now(): Date }): void {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const holder = holders[spec.entity];
  const guard = { preValidation: requireAccess(spec.key, 'edit') };

  r.post('/:id/app-account', { ...guard, schema: { params: idParamsSchema } }, async (request) => {
    const actor = await requireActor(request);
    const id = uuidOr404(request.params.id);
    const given = await scope.db.transaction(async (tx): Promise<AppAccountGiven> => {
      const h = await holder(tx, actor, id);
      if (h.userId) throw new AppError(409, 'people:appAccount.exists');
      await checkAccountUnique(tx, { accountNum: h.login, mobile: '' }).catch(() => {
        throw new AppError(409, 'people:appAccount.loginTaken', { login: h.login });
      });
      const password = oneTimePassword();
      const [user] = await tx
        .insert(users)
        .values({ accountNum: h.login, name: h.name, gender: h.gender, mobile: spec.entity === 'parent' ? h.login : null, passwordHash: await hashPassword(sha256Hex(password)), mustChangePassword: true })
        .returning({ id: users.id });
      await h.link(tx, user.id);
      await audit(tx, actor, { action: 'giveAppAccount', entity: spec.entity, entityId: id, after: { accountNum: h.login } });
      return { accountNum: h.login, password };
    });
    return ok(given, request.t(OK_MSG.saved));
  });

  r.put('/:id/app-account/status', { ...guard, schema: { params: idParamsSchema, body: userStatusSchema } }, async (request) => {
    const actor = await requireActor(request);
    const id = uuidOr404(request.params.id);
    await scope.db.transaction(async (tx) => {
      const userId = accountOf(await holder(tx, actor, id));
      const [before] = await tx.select({ enabled: users.enabled }).from(users).where(eq(users.id, userId));
      await tx.update(users).set({ enabled: request.body.enabled, updatedAt: spec.now() }).where(and(eq(users.id, userId)));
      if (!request.body.enabled) await endSessions(tx, spec.now(), userId);
      await audit(tx, actor, { action: 'appAccountStatus', entity: spec.entity, entityId: id, before, after: { enabled: request.body.enabled } });
    });
    return ok(null, request.t(OK_MSG.saved));
  });

  r.put('/:id/app-account/password', { ...guard, schema: { params: idParamsSchema, body: resetPasswordSchema } }, async (request) => {
    const actor = await requireActor(request);
    const id = uuidOr404(request.params.id);
    const result = await scope.db.transaction(async (tx) => {
      const answer = await resetAccountPassword(tx, accountOf(await holder(tx, actor, id)), request.body, spec.now());
      await audit(tx, actor, { action: 'resetAppPassword', entity: spec.entity, entityId: id, after: { mode: request.body.mode, mustChangePassword: true } });
      return answer;
    });
    return ok(result, request.t(OK_MSG.saved));
  });
}
