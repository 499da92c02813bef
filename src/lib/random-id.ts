/** Timestamp plus random characters (spec §3, §7): request ids and the captcha's randomStr. */
export function randomId(): string {
  return `${Date.now()}${Math.random().toString(36).slice(2, 10)}`;
}
