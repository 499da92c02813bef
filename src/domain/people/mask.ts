/**
 * Masking of personal numbers in lists for roles without the "view sensitive fields" button (docs/product-rules.md#data-scopes).
 * Masked values keep enough to tell people apart and to recognise one's own number, never enough to use it.
 */

const MASK = '*';

/** A mobile with its middle hidden: '13812345678' → '138****5678'; short or odd values keep at most their last 4 characters. */
export function maskMobile(value: string | null | undefined): string | null {
  if (value == null || value === '') return value ?? null;
  const v = value.trim();
  if (v.length >= 11) return `${v.slice(0, 3)}${MASK.repeat(v.length - 7)}${v.slice(-4)}`;
  if (v.length <= 4) return MASK.repeat(v.length);
  return `${MASK.repeat(v.length - 4)}${v.slice(-4)}`;
}

/**
 * An ID card or certificate number with all but its first and last characters hidden: '320115199001011234' →
 * '3****************4' (birth date and region stay hidden); values of 2 characters or fewer are hidden whole.
 */
export function maskIdNumber(value: string | null | undefined): string | null {
  if (value == null || value === '') return value ?? null;
  const v = value.trim();
  if (v.length <= 2) return MASK.repeat(v.length);
  return `${v[0]}${MASK.repeat(v.length - 2)}${v[v.length - 1]}`;
}

/** The masks by kind of field, for the server helper that masks a page of rows by field name. */
export const MASKS = { mobile: maskMobile, idNumber: maskIdNumber } as const;
export type MaskKind = keyof typeof MASKS;
