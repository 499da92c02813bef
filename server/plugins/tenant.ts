import fp from 'fastify-plugin';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { ORG_TYPE, type OrgType } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { pageAccess } from '@/domain/menus/access';
import { isHiddenBy } from '@/domain/menus/customize';
import type { ButtonAction } from '@/domain/menus/catalog';
import type { DataScope } from '@/domain/roles/roles';
import type { Db } from '../db/client';
import { membershipRoles, memberships, menus, roleMenus, roles } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { AppError } from '../lib/app-error';
import { isUuid } from '../lib/ids';
import { hiddenMenuIds } from '../lib/menu-custom';

/** The organisation and role a request acts for (architecture rule 4: never a client id alone). */
export interface Scope {
  /** The signed-in user. */
  userId: string;
  /** The membership (an "account" in docs/product-rules.md#tenancy) in use. */
  accountId: string;
  orgId: string;
  /** The school or bureau whose data the request reads and writes. */
  tenantOrgId: string;
  roleId: string;
  orgType: OrgType;
  permissions: ReadonlySet<string>;
  /** The role's data scope (docs/product-rules.md#data-scopes); `classScopeOf` (server/lib/data-scope.ts) resolves it. */
  dataScope: DataScope;
}

/** Who a request acts as: the user, the account (membership), its organisations, role and permission codes. */
export type Actor = Scope;

declare module 'fastify' {
  interface FastifyRequest {
    scope: Scope | null;
    /** The same as `scope`: set once `requireActor` (or a guard) ran. */
    readonly actor: Actor | null;
  }
}

/**
 * The user's scope: the present membership, or the one whose tenant (or own) organisation the
 * `orgId` header names when it is one of the user's own; any other header value is ignored.
 */
export async function loadScope(db: Db, userId: string, headerOrgId?: string): Promise<Scope | null> {
  const list = await db
    .select({ id: memberships.id, orgId: memberships.orgId, tenantOrgId: memberships.tenantOrgId, present: memberships.present, orgType: orgs.type })
    .from(memberships)
    .innerJoin(orgs, eq(orgs.id, memberships.orgId))
    .where(and(eq(memberships.userId, userId), eq(memberships.enabled, true)))
    .orderBy(desc(memberships.present), asc(memberships.createdAt), asc(memberships.id));
  if (list.length === 0) return null;
  const wanted = isUuid(headerOrgId) ? headerOrgId : undefined;
  const account = (wanted && (list.find((m) => m.tenantOrgId === wanted) ?? list.find((m) => m.orgId === wanted))) || list[0];

  const [role] = await db
    .select({ id: roles.id, dataScope: roles.dataScope })
    .from(membershipRoles)
    .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
    .where(and(eq(membershipRoles.membershipId, account.id), eq(roles.enabled, true)))
    .orderBy(desc(membershipRoles.present), asc(roles.createdAt), asc(roles.id))
    .limit(1);
  if (!role) return null;

  const rows = await db
    .select({ menuId: menus.menuId, permission: menus.permission })
    .from(roleMenus)
    .innerJoin(menus, eq(menus.menuId, roleMenus.menuId))
    .where(eq(roleMenus.roleId, role.id));
  // A page a platform operator hid is refused with everything under it (docs/product-rules.md#menu-management).
  const hidden = await hiddenMenuIds(db);
  const codes = rows.filter((r) => !isHiddenBy(hidden, r.menuId));
  return {
    userId,
    accountId: account.id,
    orgId: account.orgId,
    tenantOrgId: account.tenantOrgId,
    roleId: role.id,
    orgType: account.orgType as OrgType,
    permissions: new Set(codes.map((c) => c.permission)),
    dataScope: role.dataScope,
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Organisation type each family-prefixed API serves (docs/product-rules.md#families): `/api/busi/web/k12/…` is for K12 schools only. */
const FAMILY_PREFIX = /^\/api\/busi\/web\/(admin|k12|gx)\//;
const FAMILY_ORG_TYPE: Record<string, OrgType> = { admin: ORG_TYPE.management, k12: ORG_TYPE.k12, gx: ORG_TYPE.university };

/** The organisation type a route's family prefix demands, or null for routes outside the families. */
export function familyOrgType(routeUrl: string | undefined): OrgType | null {
  const family = routeUrl ? FAMILY_PREFIX.exec(routeUrl)?.[1] : undefined;
  return family ? FAMILY_ORG_TYPE[family] : null;
}

/**
 * Loads `request.scope` once per request (after authentication); 403 when the user has no role anywhere, or when
 * the account in use is not of the organisation type of the route's family (a K12 account calling a /gx route).
 */
export async function requireScope(request: FastifyRequest): Promise<Scope> {
  if (request.scope) return request.scope;
  if (!request.session) throw new AppError(401, ERR.sessionExpired);
  const { authCache } = request.server;
  const headerOrgId = headerValue(request.headers.orgid);
  const key = `${request.session.userId} ${headerOrgId ?? ''}`;
  let scope = authCache.scope(request.authEpoch, key);
  if (!scope) {
    const loaded = await loadScope(request.server.db, request.session.userId, headerOrgId);
    if (!loaded) throw new AppError(403, ERR.forbidden);
    authCache.keepScope(request.authEpoch, key, loaded);
    scope = loaded;
  }
  const wanted = familyOrgType(request.routeOptions.url);
  if (wanted !== null && scope.orgType !== wanted) throw new AppError(403, ERR.forbidden);
  request.scope = scope;
  return scope;
}

/** The request's actor (loaded once); 401 without a session, 403 without a role. */
export const requireActor: (request: FastifyRequest) => Promise<Actor> = requireScope;

/**
 * preValidation hook from the catalogue: the present role must hold the permission of `action` on page `key` ('view'
 * for the page itself), or of one of the alternatives (`['k12.org.grade', 'view']`) for lists several screens share.
 * Unknown keys and actions throw at start-up (docs/product-rules.md#menus-and-permissions).
 */
export function requireAccess(key: string, action: ButtonAction | 'view' = 'view', ...alternatives: readonly [string, ButtonAction | 'view'][]) {
  const code = (k: string, a: ButtonAction | 'view') => (a === 'view' ? pageAccess(k).view : pageAccess(k).need(a));
  return requirePermission(code(key, action), ...alternatives.map(([k, a]) => code(k, a)));
}

/**
 * preValidation hook: the present role must hold `code` (or one of the codes, for lists several
 * screens share) (docs/product-rules.md#menus-and-permissions), else HTTP 403 errors:forbidden.
 */
export function requirePermission(code: string, ...alternatives: string[]) {
  const codes = [code, ...alternatives];
  return async (request: FastifyRequest): Promise<void> => {
    const scope = await requireScope(request);
    if (!codes.some((c) => scope.permissions.has(c))) throw new AppError(403, ERR.forbidden);
  };
}

export const tenantPlugin = fp(
  async (app) => {
    app.decorateRequest('scope', null);
    app.decorateRequest('actor', {
      getter(this: FastifyRequest) {
        return this.scope;
      },
    });
  },
  { name: 'tiyu-tenant', dependencies: ['tiyu-auth'] },
);
