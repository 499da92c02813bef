import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { DC_MSG } from '@/domain/data-center/messages';
import { ORG_TYPE } from '@/domain/constants';
import { wallScenesFor, MEET_BOARD_LINK_DAYS, MEET_BOARD_REFRESH_S, MEET_BOARD_SCENE, WALL_INTERVAL_DEFAULT_S, wallPath, type ScreenLinkCreate, type ScreenLinkCreated, type ScreenLinkRow } from '@/domain/wall/wall';
import { ERR } from '@/domain/errors';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { screenLinks } from '../../db/schema/data-center';
import { orgs } from '../../db/schema/orgs';
import { AppError } from '../../lib/app-error';
import { isUuid } from '../../lib/ids';
import type { BoardLinkCreate } from '@/domain/meets/board';
import type { Actor } from '../../plugins/tenant';
import { tenantMeet } from '../meets/meet.service';
import { hashSecret, newToken } from '../../lib/tokens';
import type { Family } from '@/domain/menus/access';
import { WHOLE_ORG } from '../../lib/data-scope';
import { resolveScope } from './data-center.scope';
import { isoInstant } from '../../lib/iso';

/**
 * Wall-screen links (docs/product-rules.md#wall-display). A link is managed by the organisation it shows and by the bureaus above it; the
 * token is returned once at creation and only its SHA-256 is kept. Two kinds share the table and the wall: data-centre
 * links (a playlist of school-view scenes) and a meet's board links (`meet_id` set: that meet's live board only).
 */

const notFound = () => new AppError(404, ERR.notFound);
// AppError types its key as the generic catalogue; the error handler translates any 'ns:key'.
const outOfScope = () => new AppError(403, DC_MSG.orgOutOfScope);


const selection = {
  id: screenLinks.id,
  orgId: screenLinks.orgId,
  orgName: orgs.name,
  name: screenLinks.name,
  playlist: screenLinks.playlist,
  createdBy: screenLinks.createdBy,
  createdByName: users.name,
  createdAt: screenLinks.createdAt,
  revokedAt: screenLinks.revokedAt,
  lastSeenAt: screenLinks.lastSeenAt,
  meetId: screenLinks.meetId,
  expiresAt: screenLinks.expiresAt,
};

function selectLinks(db: DbOrTx) {
  return db.select(selection).from(screenLinks).innerJoin(orgs, eq(orgs.id, screenLinks.orgId)).leftJoin(users, eq(users.id, screenLinks.createdBy));
}
type Selected = Awaited<ReturnType<typeof selectLinks>>[number];

function toRow(r: Selected): ScreenLinkRow {
  return {
    id: r.id,
    orgId: r.orgId,
    orgName: r.orgName,
    name: r.name,
    playlist: r.playlist,
    createdBy: r.createdBy,
    createdByName: r.createdByName,
    createdAt: isoInstant(r.createdAt),
    revokedAt: isoInstant(r.revokedAt),
    lastSeenAt: isoInstant(r.lastSeenAt),
    meetId: r.meetId,
    expiresAt: isoInstant(r.expiresAt),
  };
}

/** Creates a link for the tenant organisation or (bureau) one of its schools; answers the token and wall path once. */
export async function createScreenLink(db: DbOrTx, family: Family, tenantOrgId: string, userId: string, body: ScreenLinkCreate): Promise<ScreenLinkCreated> {
  const orgId = body.orgId ?? tenantOrgId;
  let isDistrict = false;
  if (family === 'admin') {
    const scope = await resolveScope(db, family, { tenantOrgId, classScope: WHOLE_ORG });
    if (!scope.orgIds.includes(orgId)) throw outOfScope();
    isDistrict = scope.orgs.get(orgId)?.type === ORG_TYPE.management;
  } else if (orgId !== tenantOrgId) throw outOfScope();
  // Only a management organisation's wall compares schools (a school's would have nothing to compare).
  if (!isDistrict && body.playlist.scenes.some((s) => !wallScenesFor(false).includes(s))) throw new AppError(400, DC_MSG.districtSceneOnly);
  const token = newToken();
  const [created] = await db
    .insert(screenLinks)
    .values({ orgId, ownerOrgId: tenantOrgId, tokenHash: hashSecret(token), name: body.name, playlist: body.playlist, createdBy: userId })
    .returning({ id: screenLinks.id });
  const [row] = await selectLinks(db).where(eq(screenLinks.id, created.id));
  return { ...toRow(row), token, path: wallPath(token) };
}

async function managedOrgIds(db: DbOrTx, family: Family, tenantOrgId: string): Promise<string[]> {
  return (await resolveScope(db, family, { tenantOrgId, classScope: WHOLE_ORG })).orgIds;
}

/** Links showing the tenant organisation (and, for a bureau, its schools), newest first, revoked ones included. */
export async function listScreenLinks(db: DbOrTx, family: Family, tenantOrgId: string): Promise<ScreenLinkRow[]> {
  const ids = await managedOrgIds(db, family, tenantOrgId);
  const list = await selectLinks(db).where(and(inArray(screenLinks.orgId, ids), isNull(screenLinks.meetId))).orderBy(desc(screenLinks.createdAt), desc(screenLinks.id));
  return list.map(toRow);
}

/**
 * Revokes a data-centre link of the tenant (404 otherwise) at once (walls showing it are refused on their next call);
 * repeating is harmless, and `changed` says whether this call revoked it.
 */
export async function revokeScreenLink(db: DbOrTx, family: Family, tenantOrgId: string, userId: string, id: string, now: Date): Promise<{ row: ScreenLinkRow; changed: boolean }> {
  if (!isUuid(id)) throw notFound();
  const ids = await managedOrgIds(db, family, tenantOrgId);
  const [link] = await db
    .select({ id: screenLinks.id, revokedAt: screenLinks.revokedAt })
    .from(screenLinks)
    .where(and(eq(screenLinks.id, id), inArray(screenLinks.orgId, ids), isNull(screenLinks.meetId)));
  if (!link) throw notFound();
  return { row: await revoke(db, id, link.revokedAt, userId, now), changed: link.revokedAt === null };
}

async function revoke(db: DbOrTx, id: string, revokedAt: Date | null, userId: string, now: Date): Promise<ScreenLinkRow> {
  if (!revokedAt) await db.update(screenLinks).set({ revokedAt: now, revokedBy: userId }).where(eq(screenLinks.id, id));
  const [row] = await selectLinks(db).where(eq(screenLinks.id, id));
  return toRow(row);
}

const DAY_MS = 86_400_000;

/**
 * A board link of one of the tenant's meets (404 for another organisation's meet): the wall shows that meet's live board,
 * polled every MEET_BOARD_REFRESH_S, until revoked or MEET_BOARD_LINK_DAYS after the meet's last day.
 */
export async function createMeetBoardLink(db: DbOrTx, actor: Actor, meetId: string, body: BoardLinkCreate, now: Date): Promise<ScreenLinkCreated> {
  const meet = await tenantMeet(db, actor, meetId);
  const meetOver = Date.parse(`${meet.endDate}T00:00:00Z`) + DAY_MS;
  const expiresAt = new Date(Math.max(meetOver, now.getTime()) + MEET_BOARD_LINK_DAYS * DAY_MS);
  const token = newToken();
  const [created] = await db
    .insert(screenLinks)
    .values({
      orgId: meet.orgId,
      ownerOrgId: actor.tenantOrgId,
      tokenHash: hashSecret(token),
      name: body.name,
      playlist: { scenes: [MEET_BOARD_SCENE], intervalSeconds: WALL_INTERVAL_DEFAULT_S, refreshSeconds: MEET_BOARD_REFRESH_S },
      meetId: meet.id,
      expiresAt,
      createdBy: actor.userId,
    })
    .returning({ id: screenLinks.id });
  const [row] = await selectLinks(db).where(eq(screenLinks.id, created.id));
  return { ...toRow(row), token, path: wallPath(token) };
}

/** The board links of a meet of the tenant, newest first, revoked and expired ones included. */
export async function listMeetBoardLinks(db: DbOrTx, actor: Actor, meetId: string): Promise<ScreenLinkRow[]> {
  const meet = await tenantMeet(db, actor, meetId);
  const list = await selectLinks(db).where(eq(screenLinks.meetId, meet.id)).orderBy(desc(screenLinks.createdAt), desc(screenLinks.id));
  return list.map(toRow);
}

/** Revokes a board link of a meet of the tenant at once; repeating is harmless. */
export async function revokeMeetBoardLink(db: DbOrTx, actor: Actor, meetId: string, id: string, now: Date): Promise<ScreenLinkRow> {
  const meet = await tenantMeet(db, actor, meetId);
  if (!isUuid(id)) throw notFound();
  const [link] = await db
    .select({ id: screenLinks.id, revokedAt: screenLinks.revokedAt })
    .from(screenLinks)
    .where(and(eq(screenLinks.id, id), eq(screenLinks.meetId, meet.id)));
  if (!link) throw notFound();
  return revoke(db, id, link.revokedAt, actor.userId, now);
}
