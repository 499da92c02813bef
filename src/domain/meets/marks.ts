import { enumTable } from '../presentation';

/**
 * Result kinds of meet events and how their marks compare (docs/product-rules.md#meets). Marks are numbers in the
 * kind's unit: seconds for time, metres for distance and height, a count, or points.
 */
export const RESULT_KINDS = ['time', 'distance', 'height', 'count', 'points'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];
export const RESULT_KIND_TABLE = enumTable(RESULT_KINDS, (k) => `meets:resultKind.${k}`);

/** Only times are better when lower. */
export const lowerIsBetter = (kind: ResultKind): boolean => kind === 'time';

/** Whether mark `a` beats mark `b` (strictly) for the kind. */
export function beats(kind: ResultKind, a: number, b: number): boolean {
  return lowerIsBetter(kind) ? a < b : a > b;
}

/** Compares two marks best first (negative when `a` is better); null marks (none yet) sort last. */
export function compareMarks(kind: ResultKind, a: number | null | undefined, b: number | null | undefined): number {
  if (a == null && b == null) return 0;
  if (a == null) return 1;
  if (b == null) return -1;
  return lowerIsBetter(kind) ? a - b : b - a;
}

/** The unit suffix i18n key of a kind's marks. */
export const MARK_DECIMALS: Record<ResultKind, number> = { time: 2, distance: 2, height: 2, count: 0, points: 1 };

/** Shows a mark: times of a minute or more as m:ss.xx, others with the kind's decimals. */
export function formatMark(kind: ResultKind, mark: number | null | undefined): string {
  if (mark == null) return '';
  if (kind === 'time' && mark >= 60) {
    const m = Math.floor(mark / 60);
    const s = (mark - m * 60).toFixed(2).padStart(5, '0');
    return `${m}:${s}`;
  }
  return mark.toFixed(MARK_DECIMALS[kind]);
}

/** Reads a typed mark: '12.34', or for times also 'm:ss.xx'; null when it is not a positive number. */
export function parseMark(kind: ResultKind, text: string): number | null {
  const s = text.trim();
  if (!s) return null;
  if (kind === 'time' && s.includes(':')) {
    const [m, sec] = s.split(':');
    if (!/^\d+$/.test(m) || !/^\d{1,2}(\.\d+)?$/.test(sec) || Number(sec) >= 60) return null;
    return Math.round((Number(m) * 60 + Number(sec)) * 1000) / 1000;
  }
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  const n = Number(s);
  return n > 0 ? n : null;
}

/** What to type when a mark cannot be read, per kind (i18n keys): e.g. 请填写秒数，例如 12.5 或 1:05.30. */
export const MARK_HINTS: Record<ResultKind, string> = {
  time: 'meets:v.markTime',
  distance: 'meets:v.markMetres',
  height: 'meets:v.markMetres',
  count: 'meets:v.markNumber',
  points: 'meets:v.markNumber',
};

/**
 * Reads a typed mark for saving: blank is "no mark yet" (null), a readable one its number, anything else the kind's
 * hint (the screen shows it by the field and saves nothing, rather than sending null and losing what was typed).
 */
export function readMark(kind: ResultKind, text: string): { mark: number | null; error?: undefined } | { mark?: undefined; error: string } {
  if (!text.trim()) return { mark: null };
  const mark = parseMark(kind, text);
  return mark === null ? { error: MARK_HINTS[kind] } : { mark };
}
