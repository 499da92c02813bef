import type { Storage } from '../lib/storage/storage';

/** What buildApp hands every module. */
export interface ModuleOptions {
  limits: RateLimits;
  /** Where uploaded files live (server/lib/storage). */
  storage: Storage;
  /** Sweep of abandoned uploads and unused blobs, ms; 0 = never. */
  fileSweepEveryMs: number;
  /** TIYU_HEART_RATE_RAW_DAYS when set: raw heart-rate samples are kept this many days, over the retention schedule's. */
  heartRateRawDays?: number;
  /** TIYU_CAPTCHA_FIXED: every captcha answers this code (tests, demos; never production). */
  captchaFixed?: string;
}

/** Per-IP request limits of the endpoints people could hammer. */
export interface RateLimits {
  captchaPerMinute: number;
  loginPerMinute: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { captchaPerMinute: 30, loginPerMinute: 20 };
