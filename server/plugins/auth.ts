import fp from 'fastify-plugin';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { ERR } from '@/domain/errors';
import { memberships, sessions, users } from '../db/schema/auth';
import { sessionActivity } from '../db/schema/security';
import { AppError } from '../lib/app-error';
import { AuthCache } from '../lib/auth-cache';
import { changesSynced } from './changes';
import { hashSecret } from '../lib/tokens';
import { SessionPolicy } from '../modules/security/session-policy';
import type { Scope } from './tenant';

export interface SessionInfo {
  userId: string;
  sessionId: string;
}

interface CachedSession extends SessionInfo {
  accessExpiresAt: Date;
  mustChangePassword: boolean;
  /** The account must enrol two-factor sign-in first (docs/product-rules.md#sign-in-security). */
  enrolmentDue: boolean | null;
  /** The organisation whose security settings police the session: the tenant of the account in use. */
  orgId: string | null;
  createdAt: Date;
  lastActiveAt: Date | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: a valid bearer token or HTTP 401 errors:sessionExpired (docs/product-rules.md#error-messages). */
    authenticate(request: FastifyRequest): Promise<void>;
    /** Sessions and scopes of signed-in requests, valid while the database's auth epoch is unchanged. */
    authCache: AuthCache<CachedSession, Scope>;
    /** Idle timeout and absolute lifetime of sessions, per organisation (server/modules/security/session-policy.ts). */
    sessionPolicy: SessionPolicy;
  }
  interface FastifyRequest {
    session: SessionInfo | null;
    /** The auth epoch `authenticate` read: the request's scope is cached under it. */
    authEpoch: string;
  }
}

const BEARER = /^bearer\s+(\S+)$/i;

/**
 * What a session may call while its user must change the password an administrator chose
 * (docs/product-rules.md#users): the change itself and signing out. Everything else answers 428.
 */
const WHILE_PASSWORD_CHANGE_DUE = new Set(['/api/busi/web/myInfo/editAccount', '/api/sso/oauth/logout']);

/** What a session may call while its account must enrol two-factor sign-in: the enrolment and signing out. */
const WHILE_ENROLMENT_DUE = new Set([
  '/api/busi/web/myInfo/security/totp/start',
  '/api/busi/web/myInfo/security/totp/confirm',
  '/api/sso/oauth/logout',
]);

/** 428 for every call but the change itself and sign-out while the user must change the password (or enrol two-factor). */
function passwordChangeGate(request: FastifyRequest, session: CachedSession): void {
  if (session.mustChangePassword && !WHILE_PASSWORD_CHANGE_DUE.has(request.routeOptions.url ?? '')) {
    throw new AppError(428, ERR.passwordChangeRequired);
  }
  if (session.enrolmentDue && !WHILE_ENROLMENT_DUE.has(request.routeOptions.url ?? '')) {
    throw new AppError(428, 'security:twoFactor.enrolmentRequired');
  }
}

/** The bearer token of a request, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return (header && BEARER.exec(header)?.[1]) || null;
}

/** Sessions live in the database (architecture rule 8): any instance can check any token. */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('session', null);
    // Empty until `authenticate` reads the epoch: it equals no epoch, so such a request never uses the cache.
    app.decorateRequest('authEpoch', '');
    app.decorate('authCache', new AuthCache<CachedSession, Scope>(app.changes));
    app.decorate('sessionPolicy', new SessionPolicy());
    app.decorate('authenticate', async (request: FastifyRequest) => {
      // Already signed in by an enclosing scope's hook (the console API authenticates once for all its modules).
      if (request.session) return;
      const token = bearerToken(request);
      if (!token) throw new AppError(401, ERR.sessionExpired);
      const hash = hashSecret(token);
      const epoch = (request.authEpoch = await app.authCache.check(app.db, changesSynced(app, request)));
      const now = app.now();
      const cached = app.authCache.session(epoch, hash);
      if (cached && cached.accessExpiresAt > now) {
        await app.sessionPolicy.check(app.db, cached, now);
        passwordChangeGate(request, cached);
        request.session = { sessionId: cached.sessionId, userId: cached.userId };
        return;
      }
      const [row] = await app.db
        .select({
          sessionId: sessions.id,
          userId: sessions.userId,
          accessExpiresAt: sessions.accessExpiresAt,
          mustChangePassword: users.mustChangePassword,
          enrolmentDue: sessionActivity.enrolmentDue,
          createdAt: sessions.createdAt,
          lastActiveAt: sessionActivity.lastActiveAt,
          orgId: sql<string | null>`(select ${memberships.tenantOrgId} from ${memberships} where ${memberships.userId} = ${sessions.userId}
            order by ${memberships.present} desc, ${memberships.createdAt} limit 1)`,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .leftJoin(sessionActivity, eq(sessionActivity.sessionId, sessions.id))
        .where(
          and(
            eq(sessions.accessHash, hash),
            isNull(sessions.revokedAt),
            gt(sessions.accessExpiresAt, now),
            eq(users.enabled, true),
          ),
        )
        .limit(1);
      if (!row) throw new AppError(401, ERR.sessionExpired);
      app.authCache.keepSession(epoch, hash, row);
      await app.sessionPolicy.check(app.db, row, now);
      passwordChangeGate(request, row);
      request.session = { sessionId: row.sessionId, userId: row.userId };
    });
  },
  { name: 'tiyu-auth', dependencies: ['tiyu-db', 'tiyu-changes'] },
);
