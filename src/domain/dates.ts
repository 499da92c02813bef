const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Years a date of this product can fall in (birth dates to plan dates); year 0000 and typos like 20260 are refused. */
export const DATE_YEAR_MIN = 1900;
export const DATE_YEAR_MAX = 9999;

/** A real calendar day written YYYY-MM-DD (no 2026-13-45, no 2026-02-30) in DATE_YEAR_MIN–DATE_YEAR_MAX. */
export function isIsoDate(value: string): boolean {
  if (!DAY.test(value)) return false;
  const year = Number(value.slice(0, 4));
  if (year < DATE_YEAR_MIN || year > DATE_YEAR_MAX) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The organisations' local time zone: plan dates are calendar days in China (docs/product-rules.md#plan-states). */
export const ORG_TIME_ZONE = 'Asia/Shanghai';

// Made at the first use, not when the module loads: the first formatter with a time zone loads the browser's zone data
// (tens of ms on the signed-in page's first load), and most screens never ask for a local day.
let dayFormat: Intl.DateTimeFormat | undefined;

/** The calendar day (YYYY-MM-DD) of an instant in the organisations' time zone. */
export function localDate(at: Date): string {
  dayFormat ??= new Intl.DateTimeFormat('en-CA', { timeZone: ORG_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
  return dayFormat.format(at);
}
