import { z } from 'zod';
// The domain's zod error map (unnamed issues answer i18n keys), installed wherever a schema is built.
import '../fields';

/**
 * Identity documents of staff (docs/product-rules.md#students-and-staff). A resident ID number (GB 11643) is 17 digits
 * and a check character (0–9 or X); the check character is verified, so a mistyped digit is caught at entry.
 */

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK_CHARS = '10X98765432';

/** True when `value` is an 18-character resident ID number whose check character and birth date are valid. */
export function isResidentIdNumber(value: string): boolean {
  if (!/^\d{17}[\dX]$/.test(value)) return false;
  const sum = WEIGHTS.reduce((acc, w, i) => acc + w * Number(value[i]), 0);
  if (CHECK_CHARS[sum % 11] !== value[17]) return false;
  const [y, m, d] = [Number(value.slice(6, 10)), Number(value.slice(10, 12)), Number(value.slice(12, 14))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A resident ID as typed: full-width characters folded, spaces dropped, a lower-case x raised. */
export const normaliseIdNumber = (value: string) => value.normalize('NFKC').replace(/\s+/g, '').toUpperCase();

/** Optional resident ID number: '' means none. */
export const idCardSchema = z.preprocess(
  (v) => (typeof v === 'string' ? normaliseIdNumber(v) : v),
  z.union([z.literal(''), z.string().refine(isResidentIdNumber, 'validation:people.idCardFormat')]),
);

/** Other identity documents a staff member may hold instead of (or beside) a resident ID. */
export const CERTIFICATE_TYPES = ['passport', 'hkMacauPermit', 'taiwanPermit', 'foreignResidentPermit', 'other'] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];
export const CERTIFICATE_NO_MAX = 30;
/** Letters, digits and hyphens: what passports and the mainland travel permits print. */
export const CERTIFICATE_NO_PATTERN = /^[A-Za-z0-9-]+$/;
