import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptySchema } from '@/domain/api';
import { ERR, OK_MSG } from '@/domain/errors';
import type { Family } from '@/domain/menus/access';
import { securitySettingsAnswerSchema, securitySettingsSaveSchema } from '@/domain/security/settings';
import { lastSignInSchema, recoveryCodesSchema, securityOverviewSchema, totpConfirmSchema, totpDisableSchema, totpEnrolmentSchema } from '@/domain/security/two-factor';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/auth';
import { resourceAction, SIGNED_IN } from '../../lib/action';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { relativeApi } from '../../lib/resource';
import { countSignInFailure, checkPassword } from '../auth/sso.service';
import type { ModuleOptions } from '../module-options';
import { readSecuritySettings, saveSecuritySettings } from './settings.service';
import { acceptSecondFactor, confirmEnrolment, disableTwoFactor, hasTwoFactor, previousSignIn, securityOverview, startEnrolment } from './two-factor.service';

/**
 * The organisation's security settings screen (`{family}.system.security`, docs/product-rules.md#sign-in-security):
 * GET the effective settings, PUT them with the version read (a stale form is refused), audited.
 */
export const securitySettingsRoutes: FastifyPluginAsyncZod<{ family: Family }> = async (app, { family }) => {
  const key = `${family}.system.security`;
  await app.register(
    async (r) => {
      resourceAction(r, {
        method: 'GET',
        path: '/',
        access: [key, 'view'],
        reads: 'primary',
        summary: '组织安全设置：密码策略、管理员两步验证、会话时限、水印、导出审批阈值、学生姓名脱敏',
        answer: securitySettingsAnswerSchema,
        read: (db, actor) => readSecuritySettings(db, actor.tenantOrgId),
      });
      resourceAction(r, {
        method: 'PUT',
        path: '/',
        access: [key, 'edit'],
        summary: '保存组织安全设置（version 为读取时的版本，过期的表单被拒绝 409）',
        body: securitySettingsSaveSchema,
        answer: securitySettingsAnswerSchema,
        entity: 'securitySetting',
        audit: 'update',
        write: async (tx, actor, { body }, { now }) => {
          const change = await saveSecuritySettings(tx, actor, body, now);
          app.sessionPolicy.drop(actor.tenantOrgId);
          return { ...change, entityId: actor.tenantOrgId };
        },
      });
    },
    { prefix: relativeApi(key, family) },
  );
};

/**
 * The caller's own sign-in security (/api/busi/web/myInfo/security, the personal centre's myInfo.security page):
 * two-factor enrolment and turning it off, the recovery codes (shown once), the recent sign-ins and the one before
 * this session.
 */
export const mySecurityRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, opts) => {
  const limit = { rateLimit: { max: opts.limits.loginPerMinute, timeWindow: '1 minute' } };
  resourceAction(app, {
    method: 'GET',
    path: '/',
    access: SIGNED_IN,
    reads: 'primary',
    summary: '账号安全：两步验证状态、适用的密码策略、最近登录',
    answer: securityOverviewSchema,
    read: (db, me) => securityOverview(db, me.userId),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/lastSignIn',
    access: SIGNED_IN,
    reads: 'primary',
    summary: '上次登录的时间、IP 与浏览器（本次会话之前的成功登录；首次登录为 null）',
    answer: lastSignInSchema,
    read: (db, me) => previousSignIn(db, me.userId, me.sessionId),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/totp/start',
    access: SIGNED_IN,
    reads: 'primary',
    summary: '开始绑定两步验证：生成新密钥（仅此一次返回密钥与 otpauth 地址，确认后不再返回）',
    answer: totpEnrolmentSchema,
    config: limit,
    read: (db, me, _input, { now }) => startEnrolment(db, me.userId, now),
  });
  // A hand transaction rather than the kit's write: the audit row needs the caller's account, loaded before the
  // transaction (PGlite has one connection, so no other statement may run while it is open).
  resourceAction(app, {
    method: 'POST',
    path: '/totp/confirm',
    access: SIGNED_IN,
    reads: 'primary',
    summary: '确认绑定：验证器应用的 6 位验证码（允许前后各一个时间步）；返回 10 个一次性恢复码，仅此一次',
    body: totpConfirmSchema,
    answer: recoveryCodesSchema,
    config: limit,
    message: OK_MSG.operation,
    read: async (db, me, { body }, { now }) => {
      const actor = await me.actor();
      const recoveryCodes = await db.transaction(async (tx) => {
        const codes = await confirmEnrolment(tx, me.userId, body.code, now);
        await audit(tx, actor, { action: 'create', entity: 'twoFactor', entityId: me.userId, before: null, after: { enabled: true } });
        return codes;
      });
      return { recoveryCodes };
    },
  });
  resourceAction(app, {
    method: 'POST',
    path: '/totp/disable',
    access: SIGNED_IN,
    reads: 'primary',
    summary: '关闭两步验证：当前密码（SHA-256）与验证码或恢复码；必须启用的账号被拒绝',
    body: totpDisableSchema,
    answer: emptySchema,
    config: limit,
    message: OK_MSG.operation,
    read: async (db, me, { body }, { now }) => {
      const [user] = await db.select().from(users).where(eq(users.id, me.userId)).limit(1);
      if (!user) throw new AppError(401, ERR.sessionExpired);
      if (!(await hasTwoFactor(db, me.userId))) throw new AppError(409, 'security:twoFactor.notOn');
      await checkPassword(db, now, user, body.password, new AppError(400, ERR.oldPasswordWrong));
      if (!(await acceptSecondFactor(db, me.userId, body.code, now))) await countSignInFailure(db, now, me.userId, new AppError(400, 'security:twoFactor.codeWrong'));
      const actor = await me.actor();
      await db.transaction(async (tx) => {
        await disableTwoFactor(tx, me.userId);
        await audit(tx, actor, { action: 'delete', entity: 'twoFactor', entityId: me.userId, before: { enabled: true }, after: null });
      });
      return null;
    },
  });
};
