import { ilike, or, type SQL } from 'drizzle-orm';
import { memberships, users } from '../db/schema/auth';
import { containsPattern } from './query';

/** The columns of an account shown in a member list (role members, department members). */
export const accountMemberColumns = { accountId: memberships.id, name: users.name, accountNum: users.accountNum, mobile: users.mobile };

/** A member list's keyword: part of the person's name, login account or mobile. */
export function accountKeyword(keyword: string | undefined): SQL | undefined {
  if (!keyword) return undefined;
  const p = containsPattern(keyword);
  return or(ilike(users.name, p), ilike(users.accountNum, p), ilike(users.mobile, p));
}
