import { randomId } from '@/lib/random-id';

/** A new captcha key: the current timestamp plus random characters (spec §3). */
export const newRandomStr = randomId;

/** Address of the captcha image for a key (spec §7: GET /api/code?randomStr=…). */
export function captchaUrl(randomStr: string): string {
  return `/api/code?randomStr=${encodeURIComponent(randomStr)}`;
}
