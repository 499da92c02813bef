import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { DC_MSG } from '@/domain/data-center/messages';
import type { SchoolView, WallSceneAnswer, WallSceneData } from '@/domain/data-center/types';
import type { WallConfig, WallPlaylist, WallScene } from '@/domain/data-center/wall';
import type { DbOrTx } from '../../db/client';
import { screenLinks } from '../../db/schema/data-center';
import { orgs } from '../../db/schema/orgs';
import { AppError, type MessageKey } from '../../lib/app-error';
import { WHOLE_ORG } from '../../lib/data-scope';
import { hashSecret } from '../../lib/tokens';
import { schoolView } from '../data-center/data-center.service';
import type { Family } from '@/domain/menus/access';

/**
 * The wall display's public API (docs/api/data-center.md#wall-display): a screen token opens the playlist of one organisation and the scenes
 * in it, read-only, and nothing else. Scenes are slices of the same school-view service the dashboards use.
 */

// AppError types its key as the generic catalogue; the error handler translates any 'ns:key'.
const screenError = (status: number, key: MessageKey) => new AppError(status, key);

/** last_seen_at is written at most this often per link, so a room of screens costs no write storm. */
const LAST_SEEN_EVERY_MS = 60_000;
/** Scene data is shared between the screens of one organisation and period for this long. */
export const SCENE_CACHE_MS = 15_000;
const SCENE_CACHE_MAX = 500;

export interface ScreenLink {
  id: string;
  orgId: string;
  orgName: string;
  orgType: number;
  name: string;
  playlist: WallPlaylist;
}

/** The link of a token: 401 when unknown, 410 when revoked; records that a wall was seen. */
export async function linkOfToken(db: DbOrTx, token: string, now: Date): Promise<ScreenLink> {
  const [row] = await db
    .select({
      id: screenLinks.id,
      orgId: screenLinks.orgId,
      orgName: orgs.name,
      orgType: orgs.type,
      name: screenLinks.name,
      playlist: screenLinks.playlist,
      revokedAt: screenLinks.revokedAt,
      orgEnabled: orgs.enabled,
    })
    .from(screenLinks)
    .innerJoin(orgs, eq(orgs.id, screenLinks.orgId))
    .where(eq(screenLinks.tokenHash, hashSecret(token)))
    .limit(1);
  if (!row) throw screenError(401, DC_MSG.screenInvalid);
  if (row.revokedAt || !row.orgEnabled) throw screenError(410, DC_MSG.screenRevoked);
  await db
    .update(screenLinks)
    .set({ lastSeenAt: now })
    .where(and(eq(screenLinks.id, row.id), or(isNull(screenLinks.lastSeenAt), lt(screenLinks.lastSeenAt, new Date(now.getTime() - LAST_SEEN_EVERY_MS)))));
  return { id: row.id, orgId: row.orgId, orgName: row.orgName, orgType: row.orgType, name: row.name, playlist: row.playlist };
}

export function wallConfig(link: ScreenLink, now: Date): WallConfig {
  return { name: link.name, orgId: link.orgId, orgName: link.orgName, playlist: link.playlist, serverTime: now.toISOString() };
}

/** The route family whose rules a wall of this organisation follows: a bureau sees its schools. */
function familyOf(orgType: number): Family {
  return orgType === ORG_TYPE.management ? 'admin' : orgType === ORG_TYPE.university ? 'gx' : 'k12';
}

/** A small time-bounded cache of school views, one per app instance. */
export interface SceneCache {
  get(key: string, now: number): Promise<SchoolView> | undefined;
  set(key: string, now: number, value: Promise<SchoolView>): void;
}

export function createSceneCache(ttlMs = SCENE_CACHE_MS): SceneCache {
  const entries = new Map<string, { at: number; value: Promise<SchoolView> }>();
  return {
    get(key, now) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (now - e.at > ttlMs) {
        entries.delete(key);
        return undefined;
      }
      return e.value;
    },
    set(key, now, value) {
      if (entries.size >= SCENE_CACHE_MAX) entries.delete(entries.keys().next().value as string);
      entries.set(key, { at: now, value });
      // A failed computation must not be served to the next screen.
      value.catch(() => entries.delete(key));
    },
  };
}

function sliceOf(scene: WallScene, view: SchoolView): WallSceneData {
  switch (scene) {
    case 'schoolOverview':
      return { scene, overview: view.overview, items: view.items, trend: view.trend };
    case 'gradeComparison':
      return { scene, byGrade: view.byGrade };
    case 'classRanking':
      return { scene, ranking: view.ranking };
    case 'weakestItems':
      return { scene, weakestItems: view.weakestItems, byGrade: view.byGrade };
  }
}

/** One scene of the link's playlist (404 for a scene the playlist does not include). */
export async function wallScene(db: DbOrTx, link: ScreenLink, scene: WallScene, now: Date, cache: SceneCache): Promise<WallSceneAnswer> {
  if (!link.playlist.scenes.includes(scene)) throw screenError(404, DC_MSG.sceneNotInPlaylist);
  const { schoolYear, semesterCode } = link.playlist;
  const key = `${link.orgId}|${schoolYear ?? ''}|${semesterCode ?? ''}`;
  let view = cache.get(key, now.getTime());
  if (!view) {
    // A wall link is a school-wide public view: no person's data scope applies (docs/product-rules.md#data-scopes).
    view = schoolView(db, familyOf(link.orgType), { tenantOrgId: link.orgId, classScope: WHOLE_ORG }, { schoolYear, semesterCode });
    cache.set(key, now.getTime(), view);
  }
  const v = await view;
  return { scene, scope: v.scope, period: v.period, asOf: v.asOf, data: sliceOf(scene, v) };
}
