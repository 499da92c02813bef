import fp from 'fastify-plugin';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { ERR } from '@/domain/errors';
import { sessions, users } from '../db/schema/auth';
import { AppError } from '../lib/app-error';
import { hashSecret } from '../lib/tokens';

export interface SessionInfo {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: a valid bearer token or HTTP 401 errors:sessionExpired (spec §8). */
    authenticate(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    session: SessionInfo | null;
  }
}

const BEARER = /^bearer\s+(\S+)$/i;

/**
 * What a session may call while its user must change the password an administrator chose
 * (docs/product-rules.md#users): the change itself and signing out. Everything else answers 428.
 */
const WHILE_PASSWORD_CHANGE_DUE = new Set(['/api/busi/web/myInfo/editAccount', '/api/sso/oauth/logout']);

/** The bearer token of a request, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return (header && BEARER.exec(header)?.[1]) || null;
}

/** Sessions live in the database (architecture rule 8): any instance can check any token. */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('session', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (!token) throw new AppError(401, ERR.sessionExpired);
      const [row] = await app.db
        .select({ sessionId: sessions.id, userId: sessions.userId, mustChangePassword: users.mustChangePassword })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(
            eq(sessions.accessHash, hashSecret(token)),
            isNull(sessions.revokedAt),
            gt(sessions.accessExpiresAt, app.now()),
            eq(users.enabled, true),
          ),
        )
        .limit(1);
      if (!row) throw new AppError(401, ERR.sessionExpired);
      if (row.mustChangePassword && !WHILE_PASSWORD_CHANGE_DUE.has(request.routeOptions.url ?? '')) {
        throw new AppError(428, ERR.passwordChangeRequired);
      }
      request.session = { sessionId: row.sessionId, userId: row.userId };
    });
  },
  { name: 'tiyu-auth', dependencies: ['tiyu-db'] },
);
