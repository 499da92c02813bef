import type { Family } from './menus/families';

/** Business constants and limits of docs/product-rules.md#limits. Every limit the product enforces is named here once. */

/** Route base path of the web app (docs/product-rules.md#screens-and-routes). */
export const BASE_PATH = '/busi';

/** Request timeout in ms (docs/product-rules.md#calls, #limits). */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Upload timeout in ms: "a very long timeout" (docs/product-rules.md#calls). */
export const UPLOAD_TIMEOUT_MS = 30 * 60_000;
/** Lazy screen load timeout in ms (docs/product-rules.md#screens-and-routes, #limits). */
export const SCREEN_LOAD_TIMEOUT_MS = 120_000;

/** Table page sizes (docs/product-rules.md#lists). */
export const PAGE_SIZES = [10, 20, 50, 80] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** Import progress: +10 every 500 ms, stops at 90 (docs/product-rules.md#import-files). */
export const IMPORT_PROGRESS_STEP = 10;
export const IMPORT_PROGRESS_INTERVAL_MS = 500;
export const IMPORT_PROGRESS_MAX = 90;

/** Semester codes (docs/product-rules.md#school-years, #limits). */
export const SEMESTER = { spring: 11, autumn: 13 } as const;
export type SemesterCode = (typeof SEMESTER)[keyof typeof SEMESTER];

/** Organisation types (docs/product-rules.md#families, #limits). */
export const ORG_TYPE = { management: 10, k12: 21, university: 22, enterprise: 30 } as const;
export type OrgType = (typeof ORG_TYPE)[keyof typeof ORG_TYPE];
export const ORG_TYPES: readonly OrgType[] = [10, 21, 22, 30];

/** Route family of each organisation type (docs/product-rules.md#families). Enterprise organisations have no family of their own. */
export const TYPE_PATH: Record<OrgType, TypePath | null> = { 10: '/admin', 21: '/k12', 22: '/gx', 30: null };
export type TypePath = `/${Family}`;
/** The families with routes of their own: the role families and the shared /single screens. */
export type RouteFamily = Family | 'single';

/** Password and login account length (docs/product-rules.md#users, #limits). */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
export const ACCOUNT_MIN = 6;
export const ACCOUNT_MAX = 20;

/** Class code maximum (docs/product-rules.md#classes, #limits). */
export const CLASS_CODE_MAX = 99;
/** Plan name length (docs/product-rules.md#limits). */
export const PLAN_NAME_MIN = 1;
export const PLAN_NAME_MAX = 20;

/** Banner carousel, e-stamps, style photos (docs/product-rules.md#limits). */
export const BANNER_MAX = 5;
export const ESTAMP_MAX = 10;
export const STYLE_PHOTO_MAX = 100;

/** Upload byte ceilings (docs/product-rules.md#uploads). */
export const UPLOAD_LIMIT = {
  image: 5_242_880,
  video: 524_288_000,
  audio: 52_428_800,
  gif: 10_485_760,
  facePhoto: 10 * 1024 * 1024,
  stylePhoto: 20 * 1024 * 1024,
  estamp: 2 * 1024 * 1024,
  eventFile: 50 * 1024 * 1024,
} as const;
/** Images larger than this are compressed before upload (docs/product-rules.md#uploads). */
export const IMAGE_COMPRESS_ABOVE = 100 * 1024;

/** Test report minimum fee in CNY (docs/product-rules.md#limits). */
export const TEST_REPORT_FEE_MIN = 0.01;

/** Physique total score: standard 100 + bonus up to 20 (docs/product-rules.md#physique-scoring). */
export const PHYSIQUE_STANDARD_MAX = 100;
export const PHYSIQUE_BONUS_MAX = 20;
export const PHYSIQUE_TOTAL_MAX = 120;
/** Grade bands of the total score (docs/product-rules.md#physique-scoring). */
export const LEVEL_BANDS = { excellent: 90, good: 80, pass: 60 } as const;

/** Sign-in protection: lock an account for 15 minutes after 5 failures (docs/product-rules.md#sign-in). */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_LOCK_MS = 15 * 60_000;
/** Captcha answers expire after this many ms and are single use. */
export const CAPTCHA_TTL_MS = 3 * 60_000;
/** Access tokens live 2 h, refresh tokens 7 days. */
export const ACCESS_TOKEN_TTL_S = 2 * 60 * 60;
export const REFRESH_TOKEN_TTL_S = 7 * 24 * 60 * 60;

/** Interface languages (docs/product-rules.md#languages): zh_cn default, zh_tw fallback, en_us. */
export const LOCALES = ['zh_cn', 'zh_tw', 'en_us'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh_cn';
/** accept-language header value sent for each locale (docs/product-rules.md#calls). */
export const ACCEPT_LANGUAGE: Record<Locale, string> = { zh_cn: 'zh-CN', zh_tw: 'zh-TW', en_us: 'en-US' };
/** Platform header sent with every request (docs/product-rules.md#calls). */
export const PLATFORM = 'web';
