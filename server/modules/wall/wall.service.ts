import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { ORG_TYPE, type OrgType } from '@/domain/constants';
import { DC_MSG } from '@/domain/data-center/messages';
import type { MeetBoardAnswer, SchoolView, WallSceneAnswer, WallSceneData } from '@/domain/data-center/types';
import type { DistrictOverview } from '@/domain/data-center/district';
import { DISTRICT_SCENE, LESSONS_SCENE, MEET_BOARD_SCENE, WARNINGS_SCENE, type DataCenterScene, type WallConfig, type WallPlaylist } from '@/domain/wall/wall';
import type { MeetBoardView } from '@/domain/meets/board';
import type { DbOrTx } from '../../db/client';
import { screenLinks } from '../../db/schema/data-center';
import { meets } from '../../db/schema/meets';
import { orgs } from '../../db/schema/orgs';
import { AppError, type MessageKey } from '../../lib/app-error';
import { WHOLE_ORG } from '../../lib/data-scope';
import { hashSecret } from '../../lib/tokens';
import type { Actor } from '../../plugins/tenant';
import { schoolView } from '../data-center/data-center.service';
import { districtOverview } from '../data-center/district.service';
import { meetBoard } from '../meets/points.service';
import { warningsSceneData } from '../warnings/warnings.service';
import { lessonsSceneData } from '../lesson-load/summary.service';
import type { Family } from '@/domain/menus/access';

/**
 * The wall display's public API (docs/product-rules.md#wall-display): a screen token opens the playlist of one organisation and the scenes
 * in it, read-only, and nothing else. Scenes are slices of the same school-view service the dashboards use.
 */

// AppError types its key as the generic catalogue; the error handler translates any 'ns:key'.
const screenError = (status: number, key: MessageKey) => new AppError(status, key);

/** last_seen_at is written at most this often per link, so a room of screens costs no write storm. */
const LAST_SEEN_EVERY_MS = 60_000;
/** Scene data is shared between the screens of one organisation and period for this long. */
export const SCENE_CACHE_MS = 15_000;
/** A meet board is shared between the walls of one meet for this long: a room of walls costs one query, results still show within seconds. */
export const BOARD_CACHE_MS = 2_000;
const SCENE_CACHE_MAX = 500;

export interface ScreenLink {
  id: string;
  orgId: string;
  orgName: string;
  orgType: number;
  name: string;
  playlist: WallPlaylist;
  /** A meet's board link: the meet it shows. */
  meet: WallConfig['meet'];
}

/** The link of a token: 401 when unknown, 410 when revoked or expired; records that a wall was seen. */
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
      expiresAt: screenLinks.expiresAt,
      orgEnabled: orgs.enabled,
      meetId: meets.id,
      meetName: meets.name,
      meetStart: meets.startDate,
      meetEnd: meets.endDate,
    })
    .from(screenLinks)
    .innerJoin(orgs, eq(orgs.id, screenLinks.orgId))
    .leftJoin(meets, eq(meets.id, screenLinks.meetId))
    .where(eq(screenLinks.tokenHash, hashSecret(token)))
    .limit(1);
  if (!row) throw screenError(401, DC_MSG.screenInvalid);
  if (row.revokedAt || !row.orgEnabled) throw screenError(410, DC_MSG.screenRevoked);
  if (row.expiresAt && row.expiresAt <= now) throw screenError(410, DC_MSG.screenExpired);
  await db
    .update(screenLinks)
    .set({ lastSeenAt: now })
    .where(and(eq(screenLinks.id, row.id), or(isNull(screenLinks.lastSeenAt), lt(screenLinks.lastSeenAt, new Date(now.getTime() - LAST_SEEN_EVERY_MS)))));
  const meet = row.meetId ? { id: row.meetId, name: row.meetName ?? '', startDate: row.meetStart ?? '', endDate: row.meetEnd ?? '' } : null;
  return { id: row.id, orgId: row.orgId, orgName: row.orgName, orgType: row.orgType, name: row.name, playlist: row.playlist, meet };
}

export function wallConfig(link: ScreenLink, now: Date): WallConfig {
  return { name: link.name, orgId: link.orgId, orgName: link.orgName, playlist: link.playlist, meet: link.meet, serverTime: now.toISOString() };
}

/** The route family whose rules a wall of this organisation follows: a bureau sees its schools. */
function familyOf(orgType: number): Family {
  return orgType === ORG_TYPE.management ? 'admin' : orgType === ORG_TYPE.university ? 'gx' : 'k12';
}

/** A small time-bounded cache of school views (or meet boards), one per app instance. */
export interface SceneCache<T = SchoolView> {
  get(key: string, now: number): Promise<T> | undefined;
  set(key: string, now: number, value: Promise<T>): void;
}

export function createSceneCache<T = SchoolView>(ttlMs = SCENE_CACHE_MS): SceneCache<T> {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
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

function sliceOf(scene: Exclude<DataCenterScene, typeof DISTRICT_SCENE | typeof WARNINGS_SCENE | typeof LESSONS_SCENE>, view: SchoolView): WallSceneData {
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

/**
 * The district scene: the district overview's totals and school rows (school names and figures; the overview has no
 * student in it), for a management organisation's link only.
 */
async function districtScene(db: DbOrTx, link: ScreenLink, now: Date, key: string, cache: SceneCache<DistrictOverview>): Promise<WallSceneAnswer> {
  if (link.orgType !== ORG_TYPE.management) throw screenError(404, DC_MSG.sceneNotInPlaylist);
  let view = cache.get(key, now.getTime());
  if (!view) {
    const { schoolYear, semesterCode } = link.playlist;
    view = districtOverview(db, { tenantOrgId: link.orgId, classScope: WHOLE_ORG }, { schoolYear, semesterCode });
    cache.set(key, now.getTime(), view);
  }
  const v = await view;
  return { scene: DISTRICT_SCENE, scope: v.scope, period: v.period, asOf: now.toISOString(), data: { scene: DISTRICT_SCENE, total: v.total, schools: v.schools } };
}

/** One scene of the link's playlist (404 for a scene the playlist does not include). */
export async function wallScene(
  db: DbOrTx,
  link: ScreenLink,
  scene: DataCenterScene,
  now: Date,
  cache: SceneCache,
  districts: SceneCache<DistrictOverview> = createSceneCache<DistrictOverview>(),
): Promise<WallSceneAnswer> {
  if (!link.playlist.scenes.includes(scene)) throw screenError(404, DC_MSG.sceneNotInPlaylist);
  const { schoolYear, semesterCode } = link.playlist;
  const key = `${link.orgId}|${schoolYear ?? ''}|${semesterCode ?? ''}`;
  if (scene === DISTRICT_SCENE) return districtScene(db, link, now, key, districts);
  let view = cache.get(key, now.getTime());
  if (!view) {
    // A wall link is a school-wide public view: no person's data scope applies (docs/product-rules.md#data-scopes).
    view = schoolView(db, familyOf(link.orgType), { tenantOrgId: link.orgId, classScope: WHOLE_ORG }, { schoolYear, semesterCode });
    cache.set(key, now.getTime(), view);
  }
  const v = await view;
  // Counts only (docs/product-rules.md#warnings): the school's, or a district's summed over its schools.
  if (scene === WARNINGS_SCENE) return { scene, scope: v.scope, period: v.period, asOf: now.toISOString(), data: await warningsSceneData(db, link.orgId, link.orgType === ORG_TYPE.management, now) };
  // Today's lessons (docs/product-rules.md#lesson-load: reports): counts and class figures, never a student's name.
  if (scene === LESSONS_SCENE) return { scene, scope: v.scope, period: v.period, asOf: now.toISOString(), data: await lessonsSceneData(db, link.orgId, link.orgType === ORG_TYPE.management, now) };
  return { scene, scope: v.scope, period: v.period, asOf: v.asOf, data: sliceOf(scene, v) };
}

/**
 * A read-only actor of the link's organisation with no user, role or permission: what the meet services need to scope
 * their reads to the organisation the link names.
 */
function linkActor(link: ScreenLink): Actor {
  return {
    userId: '',
    accountId: '',
    orgId: link.orgId,
    tenantOrgId: link.orgId,
    roleId: '',
    orgType: link.orgType as OrgType,
    permissions: new Set(),
    dataScope: 'org',
  };
}

/** The board of a meet link (404 for any other link): the same published-only board the signed-in score screen polls. */
export async function meetBoardScene(db: DbOrTx, link: ScreenLink, now: Date, cache: SceneCache<MeetBoardView>): Promise<MeetBoardAnswer> {
  if (!link.meet || !link.playlist.scenes.includes(MEET_BOARD_SCENE)) throw screenError(404, DC_MSG.sceneNotInPlaylist);
  const meetId = link.meet.id;
  let board = cache.get(meetId, now.getTime());
  if (!board) {
    board = meetBoard(db, linkActor(link), meetId);
    cache.set(meetId, now.getTime(), board);
  }
  return { scene: MEET_BOARD_SCENE, asOf: now.toISOString(), board: await board };
}
