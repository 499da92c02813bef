import { and, asc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client';
import { memberships, users } from '../db/schema/auth';
import type { Actor } from '../plugins/tenant';
import { CANDIDATES_MAX } from './linked';
import { containsPattern } from './query';
import { notFound } from './resource';

/** The columns of an account shown in a member list (role members, department members). */
export const accountMemberColumns = { accountId: memberships.id, name: users.name, accountNum: users.accountNum, mobile: users.mobile };

/** A member list's keyword: part of the person's name, login account or mobile. */
export function accountKeyword(keyword: string | undefined): SQL | undefined {
  if (!keyword) return undefined;
  const p = containsPattern(keyword);
  return or(ilike(users.name, p), ilike(users.accountNum, p), ilike(users.mobile, p));
}

/** The add-members picker of a linked member list: accounts of the actor's organisation matching the keyword and `where` (not yet members), by name. */
export function accountCandidates(db: DbOrTx, actor: Actor, keyword: string | undefined, ...where: (SQL | undefined)[]) {
  return db
    .select(accountMemberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.tenantOrgId, actor.tenantOrgId), accountKeyword(keyword), ...where))
    .orderBy(asc(users.name), asc(memberships.id))
    .limit(CANDIDATES_MAX);
}

/** Refuses (404) unless every id names an account of the actor's organisation: another tenant's account does not exist here. */
export async function assertOwnAccounts(tx: Tx, actor: Actor, ids: readonly string[]): Promise<void> {
  const found = await tx.select({ id: memberships.id }).from(memberships).where(and(inArray(memberships.id, ids), eq(memberships.tenantOrgId, actor.tenantOrgId)));
  if (found.length !== ids.length) throw notFound();
}

/** The accounts an add newly linked, as the member list shows them (the linked-records kit's answer). */
export async function accountMembersOf(tx: Tx, ids: readonly string[]) {
  if (!ids.length) return [];
  return tx.select(accountMemberColumns).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(inArray(memberships.id, ids));
}
