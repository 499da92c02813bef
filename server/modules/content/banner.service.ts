import { and, asc, eq, gt, ilike, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { BANNER_MAX, type BannerListQuery, type BannerMove, type BannerPosition, type BannerRow, type BannerSave, type CarouselSlide } from '@/domain/content/banners';
import { filePaths } from '@/domain/uploads/stored-file';
import type { DbOrTx, Tx } from '../../db/client';
import { banners } from '../../db/schema/content';
import { orgs } from '../../db/schema/orgs';
import { AppError, fieldError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { rootOrgId } from '../org-manage/tenant-org.service';
import { assertOwnFiles } from './content-files';

const columns = {
  id: banners.id,
  title: banners.title,
  position: banners.position,
  imageFileId: banners.imageFileId,
  link: banners.link,
  enabled: banners.enabled,
  sort: banners.sort,
  positionCount: sql<number>`(select count(*)::int from banners b where b.org_id = "banners"."org_id" and b.position = "banners"."position")`,
  updatedAt: sql<string>`to_char(${banners.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
  version: banners.version,
};
const select = (db: DbOrTx, where: SQL | undefined) => db.select(columns).from(banners).where(where);
const own = (actor: Actor) => eq(banners.orgId, actor.tenantOrgId);

/** Banners of the tenant by position, then place. */
export function bannerPage(db: DbOrTx, actor: Actor, q: BannerListQuery): Promise<Page<BannerRow>> {
  const where = and(own(actor), q.position ? eq(banners.position, q.position) : undefined, q.title ? ilike(banners.title, containsPattern(q.title)) : undefined);
  return paginate(db, select(db, where).orderBy(asc(banners.position), asc(banners.sort), asc(banners.id)).$dynamic(), q);
}

/** One banner of the tenant; another organisation's id answers 404. */
export async function bannerById(db: DbOrTx, actor: Actor, id: string): Promise<BannerRow> {
  const [row] = await select(db, and(own(actor), eq(banners.id, id))).limit(1);
  if (!row) throw notFound();
  return row;
}

/** Takes the position's banners under a row lock, so two adds cannot both pass the count. */
async function lockPosition(tx: Tx, actor: Actor, position: BannerPosition) {
  // Locking the organisation row serialises writers of its banners even when the position is still empty.
  await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, actor.tenantOrgId)).for('update');
  return tx.$count(banners, and(own(actor), eq(banners.position, position)));
}

/** At most BANNER_MAX per position (docs/product-rules.md#banners): the sixth is refused. */
function assertRoom(count: number) {
  if (count >= BANNER_MAX) throw fieldError('position', 'content:validation.banner.tooMany', { max: BANNER_MAX });
}

export async function createBanner(tx: Tx, actor: Actor, body: BannerSave, now: Date): Promise<BannerRow> {
  const count = await lockPosition(tx, actor, body.position);
  assertRoom(count);
  await assertOwnFiles(tx, actor, 'imageFileId', [body.imageFileId], ['banner']);
  const [row] = await tx
    .insert(banners)
    .values({ orgId: actor.tenantOrgId, position: body.position, title: body.title, imageFileId: body.imageFileId, link: body.link ?? null, enabled: body.enabled, sort: count + 1, updatedAt: now })
    .returning({ id: banners.id });
  return bannerById(tx, actor, row.id);
}

/** Closes the gap a banner leaves at `sort` in its old position. */
async function closeGap(tx: Tx, actor: Actor, position: BannerPosition, sort: number) {
  await tx
    .update(banners)
    .set({ sort: sql`${banners.sort} - 1` })
    .where(and(own(actor), eq(banners.position, position), gt(banners.sort, sort)));
}

export async function updateBanner(tx: Tx, actor: Actor, id: string, body: BannerSave, now: Date): Promise<Change<BannerRow>> {
  await lockVersion(tx, banners, id, own(actor), body.version ?? -1);
  const before = await bannerById(tx, actor, id);
  await assertOwnFiles(tx, actor, 'imageFileId', [body.imageFileId], ['banner']);
  let sort = before.sort;
  if (body.position !== before.position) {
    // Moving to another position: last place there, if there is room.
    const count = await lockPosition(tx, actor, body.position);
    assertRoom(count);
    await closeGap(tx, actor, before.position, before.sort);
    sort = count + 1;
  }
  await tx
    .update(banners)
    .set({ title: body.title, position: body.position, imageFileId: body.imageFileId, link: body.link ?? null, enabled: body.enabled, sort, updatedAt: now, version: nextVersion(banners.version) })
    .where(eq(banners.id, id));
  return { before, after: await bannerById(tx, actor, id) };
}

export async function setBannerEnabled(tx: Tx, actor: Actor, id: string, enabled: boolean, version: number | undefined, now: Date): Promise<Change<BannerRow>> {
  await lockVersion(tx, banners, id, own(actor), version ?? -1);
  const before = await bannerById(tx, actor, id);
  await tx.update(banners).set({ enabled, updatedAt: now, version: nextVersion(banners.version) }).where(eq(banners.id, id));
  return { before, after: await bannerById(tx, actor, id) };
}

/**
 * Swaps a banner with its neighbour above or below in the same position (docs/product-rules.md#banners); the first
 * cannot move up nor the last down (400).
 */
export async function moveBanner(tx: Tx, actor: Actor, id: string, body: BannerMove, now: Date): Promise<Change<BannerRow>> {
  await lockVersion(tx, banners, id, own(actor), body.version ?? -1);
  const before = await bannerById(tx, actor, id);
  await lockPosition(tx, actor, before.position);
  const target = body.direction === 'up' ? before.sort - 1 : before.sort + 1;
  const [neighbour] = await tx
    .select({ id: banners.id })
    .from(banners)
    .where(and(own(actor), eq(banners.position, before.position), eq(banners.sort, target)));
  if (!neighbour) throw new AppError(400, body.direction === 'up' ? 'content:validation.banner.alreadyFirst' : 'content:validation.banner.alreadyLast');
  await tx.update(banners).set({ sort: before.sort, version: nextVersion(banners.version) }).where(eq(banners.id, neighbour.id));
  await tx.update(banners).set({ sort: target, updatedAt: now, version: nextVersion(banners.version) }).where(eq(banners.id, id));
  return { before, after: await bannerById(tx, actor, id) };
}

export async function deleteBanner(tx: Tx, actor: Actor, id: string): Promise<BannerRow> {
  const before = await bannerById(tx, actor, id);
  await lockPosition(tx, actor, before.position);
  await tx.delete(banners).where(eq(banners.id, id));
  await closeGap(tx, actor, before.position, before.sort);
  return before;
}

/** Organisation trees are shallow; the bound guards a corrupt parent cycle. */
const MAX_DEPTH = 16;

/**
 * The carousel of a position (docs/product-rules.md#banners): the enabled banners of the organisation or, when it
 * shows none there, of its nearest ancestor that does; without an organisation, the top one's. Public: images are of
 * the public purpose `banner`.
 */
export async function carousel(db: DbOrTx, orgId: string | undefined, position: BannerPosition): Promise<CarouselSlide[]> {
  let id: string | null = isUuid(orgId) ? orgId : await rootOrgId(db);
  for (let depth = 0; id && depth < MAX_DEPTH; depth++) {
    const rows = await db
      .select({ id: banners.id, title: banners.title, link: banners.link, imageFileId: banners.imageFileId })
      .from(banners)
      .where(and(eq(banners.orgId, id), eq(banners.position, position), eq(banners.enabled, true)))
      .orderBy(asc(banners.sort));
    if (rows.length > 0) return rows.map((r) => ({ id: r.id, title: r.title, link: r.link, image: filePaths.publicContent(r.imageFileId) }));
    const [org] = await db.select({ parentId: orgs.parentId }).from(orgs).where(eq(orgs.id, id)).limit(1);
    id = org?.parentId ?? null;
  }
  return [];
}
