/** What buildApp hands every module. */
export interface ModuleOptions {
  limits: RateLimits;
  /** TIYU_CAPTCHA_FIXED: every captcha answers this code (tests, demos; never production). */
  captchaFixed?: string;
}

/** Per-IP request limits of the endpoints people could hammer. */
export interface RateLimits {
  captchaPerMinute: number;
  loginPerMinute: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { captchaPerMinute: 30, loginPerMinute: 20 };
