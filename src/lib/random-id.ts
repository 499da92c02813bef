/** Timestamp plus random characters (docs/product-rules.md#sign-in, #calls): request ids and the captcha's randomStr. */
export function randomId(): string {
  return `${Date.now()}${Math.random().toString(36).slice(2, 10)}`;
}
