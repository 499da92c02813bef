import { randomId } from '@/lib/random-id';

/** A new captcha key: the current timestamp plus random characters (docs/product-rules.md#sign-in). */
export const newRandomStr = randomId;

/** Address of the captcha image for a key (docs/product-rules.md#calls: GET /api/code?randomStr=…). */
export function captchaUrl(randomStr: string): string {
  return `/api/code?randomStr=${encodeURIComponent(randomStr)}`;
}
