import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { SimpleOrgInfo } from '@/domain/auth/types';
import { ORG_TYPE } from '@/domain/constants';
import type { DbOrTx } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { isUuid } from '../../lib/ids';

/** Organisation trees are shallow (bureau → school → department); the bound guards a corrupt parent cycle. */
const MAX_DEPTH = 16;

type Branding = Omit<SimpleOrgInfo, 'platformName'> & { platformName: string | null };

/**
 * Branding of an organisation (docs/product-rules.md#branding): each of title, icon, login image and filing number comes
 * from the organisation itself or its nearest ancestor that sets it; null/'' when none does.
 */
export async function brandingOf(db: DbOrTx, orgId: string): Promise<Branding> {
  const out: Branding = { platformName: null, icon: '', loginImg: '', filingNumber: '' };
  let id: string | null = orgId;
  for (let depth = 0; id && depth < MAX_DEPTH; depth++) {
    const [row] = await db
      .select({ parentId: orgs.parentId, title: orgs.title, icon: orgs.icon, loginImg: orgs.loginImg, filingNumber: orgs.filingNumber })
      .from(orgs)
      .where(eq(orgs.id, id))
      .limit(1);
    if (!row) break;
    out.platformName ||= row.title || null;
    out.icon ||= row.icon ?? '';
    out.loginImg ||= row.loginImg ?? '';
    out.filingNumber ||= row.filingNumber ?? '';
    if (out.platformName && out.icon && out.loginImg && out.filingNumber) break;
    id = row.parentId;
  }
  return out;
}

/** The top management organisation: whose branding a visitor without an organisation sees. */
export async function rootOrgId(db: DbOrTx): Promise<string | null> {
  const [row] = await db
    .select({ id: orgs.id })
    .from(orgs)
    .where(and(isNull(orgs.parentId), eq(orgs.enabled, true)))
    .orderBy(desc(sql`${orgs.type} = ${ORG_TYPE.management}`), asc(orgs.createdAt), asc(orgs.id))
    .limit(1);
  return row?.id ?? null;
}

/** Public branding for the login page (docs/product-rules.md#branding, #calls); `defaultTitle` when no organisation names one. */
export async function simpleInfo(db: DbOrTx, orgId: string | undefined, defaultTitle: string): Promise<SimpleOrgInfo> {
  let id = isUuid(orgId) ? orgId : null;
  if (id) {
    const [exists] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, id)).limit(1);
    if (!exists) id = null;
  }
  id ??= await rootOrgId(db);
  const branding = id ? await brandingOf(db, id) : { platformName: null, icon: '', loginImg: '', filingNumber: '' };
  return { ...branding, platformName: branding.platformName ?? defaultTitle };
}
