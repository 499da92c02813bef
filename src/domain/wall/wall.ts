import { z } from 'zod';
import { BASE_PATH, SEMESTER } from '../constants';
import { uuid } from '../fields';
import { SCHOOL_YEAR_MAX, SCHOOL_YEAR_MIN } from '../data-center/filters';

/** Scenes a data-centre playlist rotates through (docs/product-rules.md#wall-display). */
export const WALL_SCENES = ['schoolOverview', 'gradeComparison', 'classRanking', 'weakestItems', 'districtSchools', 'warnings', 'lessons'] as const;
/** Physique warnings and their cases as counts (docs/product-rules.md#warnings): never a student's name. */
export const WARNINGS_SCENE = 'warnings' satisfies DataCenterScene;
export type DataCenterScene = (typeof WALL_SCENES)[number];
/** Today's PE lessons with heart-rate bands (docs/product-rules.md#lesson-load): counts and class figures, never a name. */
export const LESSONS_SCENE = 'lessons' satisfies DataCenterScene;
/** A management organisation's own scene: its schools side by side (counts and school figures, never a student). */
export const DISTRICT_SCENE = 'districtSchools' satisfies DataCenterScene;
/** The scenes a playlist of this organisation may hold: the district scene only on a management organisation's wall. */
export function wallScenesFor(isDistrict: boolean): readonly DataCenterScene[] {
  return isDistrict ? WALL_SCENES : WALL_SCENES.filter((s) => s !== DISTRICT_SCENE);
}
/** The one scene of a meet's board link: that meet's live board. */
export const MEET_BOARD_SCENE = 'meetBoard';
export type WallScene = DataCenterScene | typeof MEET_BOARD_SCENE;

export function isWallScene(value: unknown): value is WallScene {
  return value === MEET_BOARD_SCENE || (typeof value === 'string' && (WALL_SCENES as readonly string[]).includes(value));
}

/** A meet board polls this often: a published result shows within seconds (the signed-in board polls alike). */
export const MEET_BOARD_REFRESH_S = 5;
/** A meet's board link opens the wall until this many days after the meet's last day (or after its creation, if later). */
export const MEET_BOARD_LINK_DAYS = 7;

/** Rotation interval of a playlist, in seconds. */
export const WALL_INTERVAL_MIN_S = 5;
export const WALL_INTERVAL_MAX_S = 600;
export const WALL_INTERVAL_DEFAULT_S = 20;
/** Data refresh interval of a wall, in seconds (a TV polls at most every 30 s). */
export const WALL_REFRESH_MIN_S = 30;
export const WALL_REFRESH_MAX_S = 3600;
export const WALL_REFRESH_DEFAULT_S = 300;
/** Screen link names: 1–50 characters. */
export const SCREEN_LINK_NAME_MAX = 50;

/** What a wall shows: its scenes in order, how long each stays, how often the data is fetched again, and a fixed period. */
export const wallPlaylistSchema = z.object({
  scenes: z
    .array(z.enum(WALL_SCENES, { error: 'dataCenter:validation.scene' }), { error: 'dataCenter:validation.scenes' })
    .min(1, 'dataCenter:validation.scenes')
    .max(WALL_SCENES.length, 'dataCenter:validation.scenes')
    .refine((s) => new Set(s).size === s.length, 'dataCenter:validation.scenesUnique'),
  intervalSeconds: z
    .number({ error: 'dataCenter:validation.interval' })
    .int('dataCenter:validation.interval')
    .min(WALL_INTERVAL_MIN_S, 'dataCenter:validation.interval')
    .max(WALL_INTERVAL_MAX_S, 'dataCenter:validation.interval')
    .default(WALL_INTERVAL_DEFAULT_S),
  refreshSeconds: z
    .number({ error: 'dataCenter:validation.refresh' })
    .int('dataCenter:validation.refresh')
    .min(WALL_REFRESH_MIN_S, 'dataCenter:validation.refresh')
    .max(WALL_REFRESH_MAX_S, 'dataCenter:validation.refresh')
    .default(WALL_REFRESH_DEFAULT_S),
  /** Absent: the latest school year with results, both semesters. */
  schoolYear: z
    .number({ error: 'dataCenter:validation.schoolYear' })
    .int('dataCenter:validation.schoolYear')
    .min(SCHOOL_YEAR_MIN, 'dataCenter:validation.schoolYear')
    .max(SCHOOL_YEAR_MAX, 'dataCenter:validation.schoolYear')
    .optional(),
  semesterCode: z.union([z.literal(SEMESTER.spring), z.literal(SEMESTER.autumn)], { error: 'dataCenter:validation.semester' }).optional(),
});
/** A stored playlist: a data-centre playlist, or a meet link's `[meetBoard]` polled every MEET_BOARD_REFRESH_S. */
export type WallPlaylist = Omit<z.output<typeof wallPlaylistSchema>, 'scenes'> & { scenes: WallScene[] };

/** `:token` of a wall's public address (the screen link's secret); `:scene` one of its scenes. */
export const wallTokenParams = z.object({ token: z.string().max(128) });
export const wallSceneParams = wallTokenParams.extend({ scene: z.string().max(32) });

/** POST …/dataCenter/screenLink. */
export const screenLinkCreateSchema = z.object({
  name: z
    .string({ error: 'dataCenter:validation.linkName' })
    .trim()
    .min(1, 'dataCenter:validation.linkName')
    .max(SCREEN_LINK_NAME_MAX, 'dataCenter:validation.linkName'),
  /** The organisation the wall shows: the tenant itself (default) or, for a bureau, one of its schools. */
  orgId: uuid('dataCenter:validation.id').optional(),
  playlist: wallPlaylistSchema,
});
export type ScreenLinkCreate = z.output<typeof screenLinkCreateSchema>;

/** A stored playlist as answered: a data-centre playlist, or a meet link's `[meetBoard]` (describes, never filters). */
const answeredPlaylistSchema = wallPlaylistSchema.omit({ scenes: true }).extend({ scenes: z.array(z.enum([...WALL_SCENES, MEET_BOARD_SCENE])) });

/** A screen link as the management list shows it; the token itself is never stored nor shown again. */
export const screenLinkRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  name: z.string(),
  playlist: answeredPlaylistSchema,
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  /** ISO instants. */
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  /** A meet's board link: the meet it shows; null for a data-centre link. */
  meetId: z.string().nullable(),
  /** ISO instant after which the wall is refused; null: until revoked. */
  expiresAt: z.string().nullable(),
});
export type ScreenLinkRow = z.output<typeof screenLinkRowSchema>;

/** The answer of creating a link: the row plus the wall's URL path, shown this once. */
export const screenLinkCreatedSchema = screenLinkRowSchema.extend({
  token: z.string(),
  /** `/busi/wall/<token>`. */
  path: z.string(),
});
export type ScreenLinkCreated = z.output<typeof screenLinkCreatedSchema>;

/** The wall page's path for a token (docs/product-rules.md#wall-display). */
export function wallPath(token: string): string {
  return `${BASE_PATH}/wall/${token}`;
}

/** GET /api/screen/:token/config. */
export interface WallConfig {
  name: string;
  orgId: string;
  orgName: string;
  playlist: WallPlaylist;
  /** A meet's board link: the meet it shows. */
  meet: { id: string; name: string; startDate: string; endDate: string } | null;
  /** Server time, ISO: lets the wall show "data as of" in the school's clock even when the TV's clock is off. */
  serverTime: string;
}
