import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParamsSchema } from '@/domain/list-query';
import { appAccountGivenSchema, type AppAccountGiven } from '@/domain/people/app-accounts';
import { resetPasswordResultSchema, resetPasswordSchema, userStatusSchema } from '@/domain/users/users';
import type { Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { parents, students } from '../../db/schema/school';
import { checkAccountUnique, oneTimePassword, resetAccountPassword } from '../../lib/accounts';
import { AppError } from '../../lib/app-error';
import { resourceAction } from '../../lib/action';
import { hashPassword, sha256Hex } from '../../lib/password';
import { endSessions } from '../auth/sso.service';
import { requireConsent } from '../consent/consent.service';
import type { Actor } from '../../plugins/tenant';
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
  const holder = holders[spec.entity];
  const access = [spec.key, 'edit'] as const;

  resourceAction(scope, {
    method: 'POST',
    path: '/:id/app-account',
    access,
    params: idParamsSchema,
    entity: spec.entity,
    audit: 'giveAppAccount',
    answer: appAccountGivenSchema,
    write: async (tx, actor, { params }) => {
      const h = await holder(tx, actor, params.id);
      if (h.userId) throw new AppError(409, 'people:appAccount.exists');
      // docs/product-rules.md#consent: a student's app account only with the guardian's consent (a parent's is the guardian's own).
      if (spec.entity === 'student') await requireConsent(tx, 'appAccount', [{ id: params.id, name: h.name }]);
      await checkAccountUnique(tx, { accountNum: h.login, mobile: '' }).catch(() => {
        throw new AppError(409, 'people:appAccount.loginTaken', { login: h.login });
      });
      const password = oneTimePassword();
      const [user] = await tx
        .insert(users)
        .values({ accountNum: h.login, name: h.name, gender: h.gender, mobile: spec.entity === 'parent' ? h.login : null, passwordHash: await hashPassword(sha256Hex(password)), mustChangePassword: true })
        .returning({ id: users.id });
      await h.link(tx, user.id);
      // The one-time password is answered once and never audited.
      const given: AppAccountGiven = { accountNum: h.login, password };
      return { after: { accountNum: h.login }, answer: given };
    },
  });

  resourceAction(scope, {
    method: 'PUT',
    path: '/:id/app-account/status',
    access,
    params: idParamsSchema,
    body: userStatusSchema,
    entity: spec.entity,
    audit: 'appAccountStatus',
    answers: 'nothing',
    write: async (tx, actor, { params, body }) => {
      const userId = accountOf(await holder(tx, actor, params.id));
      const [before] = await tx.select({ enabled: users.enabled }).from(users).where(eq(users.id, userId));
      await tx.update(users).set({ enabled: body.enabled, updatedAt: spec.now() }).where(and(eq(users.id, userId)));
      if (!body.enabled) await endSessions(tx, spec.now(), userId);
      return { before, after: { enabled: body.enabled } };
    },
  });

  resourceAction(scope, {
    method: 'PUT',
    path: '/:id/app-account/password',
    access,
    params: idParamsSchema,
    body: resetPasswordSchema,
    entity: spec.entity,
    audit: 'resetAppPassword',
    answer: resetPasswordResultSchema,
    write: async (tx, actor, { params, body }) => {
      const answer = await resetAccountPassword(tx, accountOf(await holder(tx, actor, params.id)), body, spec.now());
      return { after: { mode: body.mode, mustChangePassword: true }, answer };
    },
  });
}
