/**
 * Number formats of SpreadsheetML cells, as far as an import needs them: a number shown as a date or a time is read as
 * what the person sees (a run time 0.0025462962962963 under `mm:ss` is "03:40", a birth date 40299 under `m/d/yy` is
 * "2010-05-01"). Dates become ISO `YYYY-MM-DD` (with ` HH:MM:SS` when the format shows a time too); times are rendered
 * with the format's own hours, minutes, seconds, fractions and AM/PM. Every other format leaves the number as it is.
 * Formats: ECMA-376 Part 1, sections 18.8.30 (built-in ids) and 18.8.31 (format codes).
 */

type TimeToken =
  | { t: 'lit'; v: string }
  | { t: 'h' | 'm' | 's'; width: number; elapsed: boolean }
  | { t: 'frac'; digits: number }
  | { t: 'ampm'; am: string; pm: string };

/** How a number under a format is shown: as a date, a time, both, or (null) as a number. */
export interface DateTimeFormat {
  readonly kind: 'date' | 'time' | 'datetime';
  /** Tokens of a time format, rendered as Excel renders them. */
  readonly tokens: readonly TimeToken[];
  /** Digits of the seconds fraction shown (0–3): values are rounded to that precision first, as Excel does. */
  readonly fraction: number;
}

/**
 * Built-in formats that show dates or times. Ids 14–22 and 45–47 are the same in every locale; 27–36 and 50–58 are the
 * East Asian date formats Excel writes for zh-CN files (their codes are not stored in the file).
 */
const BUILTIN: Readonly<Record<number, string>> = {
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yyyy h:mm',
  27: 'yyyy"年"m"月"',
  28: 'm"月"d"日"',
  29: 'm"月"d"日"',
  30: 'm-d-yy',
  31: 'yyyy"年"m"月"d"日"',
  32: 'h"时"mm"分"',
  33: 'h"时"mm"分"ss"秒"',
  34: '上午/下午h"时"mm"分"',
  35: '上午/下午h"时"mm"分"ss"秒"',
  36: 'yyyy"年"m"月"',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  50: 'yyyy"年"m"月"',
  51: 'm"月"d"日"',
  52: 'yyyy"年"m"月"',
  53: 'm"月"d"日"',
  54: 'm"月"d"日"',
  55: '上午/下午h"时"mm"分"',
  56: '上午/下午h"时"mm"分"ss"秒"',
  57: 'yyyy"年"m"月"',
  58: 'm"月"d"日"',
};

/** Format code of a built-in id that shows a date or time (others are numbers, text or General). */
export const builtinFormatCode = (id: number): string | undefined => BUILTIN[id];

/** The first section of a format code (positive numbers), split at ';' outside quotes. */
function firstSection(code: string): string {
  let quoted = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && !quoted) i++;
    else if (c === ';' && !quoted) return code.slice(0, i);
  }
  return code;
}

const cache = new Map<string, DateTimeFormat | null>();

/** What a format code shows: a date, a time, both, or null for anything else (General, 0.00, @, percentages…). */
export function classifyFormat(code: string): DateTimeFormat | null {
  let hit = cache.get(code);
  if (hit === undefined) {
    hit = classify(code);
    if (cache.size > 1000) cache.clear();
    cache.set(code, hit);
  }
  return hit;
}

function classify(code: string): DateTimeFormat | null {
  const section = firstSection(code);
  const tokens: TimeToken[] = [];
  let date = false;
  let i = 0;
  const n = section.length;
  while (i < n) {
    const c = section[i];
    const lower = c.toLowerCase();
    if (c === '"') {
      const end = section.indexOf('"', i + 1);
      tokens.push({ t: 'lit', v: section.slice(i + 1, end < 0 ? n : end) });
      i = end < 0 ? n : end + 1;
    } else if (c === '\\') {
      tokens.push({ t: 'lit', v: section[i + 1] ?? '' });
      i += 2;
    } else if (c === '_') {
      tokens.push({ t: 'lit', v: ' ' }); // padding as wide as the next character
      i += 2;
    } else if (c === '*') i += 2; // fill character
    else if (c === '[') {
      const end = section.indexOf(']', i);
      const inner = section.slice(i + 1, end < 0 ? n : end).toLowerCase();
      // [h], [mm], [ss]: elapsed time; anything else in brackets is a colour, condition or locale.
      if (/^(h+|m+|s+)$/.test(inner)) tokens.push({ t: inner[0] as 'h' | 'm' | 's', width: inner.length, elapsed: true });
      i = end < 0 ? n : end + 1;
    } else if (lower === 'h' || lower === 'm' || lower === 's') {
      let j = i;
      while (j < n && section[j].toLowerCase() === lower) j++;
      tokens.push({ t: lower, width: j - i, elapsed: false });
      i = j;
    } else if (section.startsWith('上午/下午', i)) {
      tokens.push({ t: 'ampm', am: '上午', pm: '下午' });
      i += 5;
    } else if (/^am\/pm/i.test(section.slice(i, i + 5))) {
      tokens.push({ t: 'ampm', am: 'AM', pm: 'PM' });
      i += 5;
    } else if (/^a\/p/i.test(section.slice(i, i + 3))) {
      tokens.push({ t: 'ampm', am: 'A', pm: 'P' });
      i += 3;
    } else if (/^general/i.test(section.slice(i, i + 7))) return null;
    else if (lower === 'e' && (section[i + 1] === '+' || section[i + 1] === '-')) return null; // scientific
    else if (lower === 'y' || lower === 'd' || lower === 'e' || lower === 'b' || lower === 'g') {
      date = true;
      i++;
    } else if (c === '0' && tokens.at(-1)?.t === 'lit' && (tokens.at(-1) as { v: string }).v === '.' && tokens.some((t) => t.t === 's')) {
      let j = i;
      while (j < n && section[j] === '0') j++;
      tokens.pop();
      tokens.push({ t: 'frac', digits: Math.min(3, j - i) });
      i = j;
    } else if (c === '0' || c === '#' || c === '?' || c === '@' || c === '%') {
      // Digit placeholders or text: a number format, unless date/time parts make it a date (then they are literal).
      if (!date && !tokens.some((t) => t.t !== 'lit')) return null;
      tokens.push({ t: 'lit', v: c });
      i++;
    } else {
      tokens.push({ t: 'lit', v: c });
      i++;
    }
  }
  // m is minutes right after hours or right before seconds, a month otherwise.
  const units = tokens.map((t, k) => ({ t, k })).filter((x) => x.t.t === 'h' || x.t.t === 'm' || x.t.t === 's');
  let time = tokens.some((t) => t.t === 'ampm');
  for (let u = 0; u < units.length; u++) {
    const tok = units[u].t as { t: 'h' | 'm' | 's'; width: number; elapsed: boolean };
    if (tok.t !== 'm' || tok.elapsed) {
      time = true;
      continue;
    }
    const prev = units[u - 1]?.t.t;
    const next = units[u + 1]?.t.t;
    if (prev === 'h' || next === 's') time = true;
    else {
      date = true;
      tokens[units[u].k] = { t: 'lit', v: '' };
    }
  }
  if (!date && !time) return null;
  const fraction = tokens.reduce((d, t) => (t.t === 'frac' ? Math.max(d, t.digits) : d), 0);
  return { kind: date && time ? 'datetime' : date ? 'date' : 'time', tokens, fraction };
}

/** Number formats of the cell styles of a workbook (styles.xml), indexed like the `s` attribute of a cell. */
export function cellFormats(stylesXml: string): (DateTimeFormat | null)[] {
  const custom = new Map<number, string>();
  for (const m of stylesXml.matchAll(/<(?:[\w.-]+:)?numFmt\b([^>]*)>/g)) {
    const id = /\bnumFmtId\s*=\s*["'](\d+)["']/.exec(m[1]);
    const code = /\bformatCode\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(m[1]);
    if (id && code) custom.set(Number(id[1]), unescapeAttribute(code[1] ?? code[2]));
  }
  const open = /<(?:[\w.-]+:)?cellXfs\b[^>]*>/.exec(stylesXml);
  if (!open) return [];
  const close = stylesXml.indexOf('cellXfs>', open.index + open[0].length);
  const xfs = stylesXml.slice(open.index + open[0].length, close < 0 ? stylesXml.length : close);
  const out: (DateTimeFormat | null)[] = [];
  for (const m of xfs.matchAll(/<(?:[\w.-]+:)?xf\b([^>]*)>/g)) {
    const id = Number(/\bnumFmtId\s*=\s*["'](\d+)["']/.exec(m[1])?.[1] ?? 0);
    const code = custom.get(id) ?? BUILTIN[id];
    out.push(code === undefined ? null : classifyFormat(code));
  }
  return out;
}

const unescapeAttribute = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e] ?? '');

const DAY_SECONDS = 86_400;
const MAX_SERIAL = 2_958_465; // 9999-12-31
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** ISO date of a day serial; null outside Excel's calendar. The 1900 system counts the fictitious 1900-02-29 (serial 60). */
function isoDay(day: number, date1904: boolean): string | null {
  if (day > MAX_SERIAL || day < (date1904 ? 0 : 1)) return null;
  if (!date1904 && day === 60) return '1900-02-29';
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : day < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  const d = new Date(epoch + day * DAY_SECONDS * 1000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

/** The text a number shows under a date/time format; the number itself when Excel would show ##### (negative, out of range). */
export function formatDateTime(value: number, format: DateTimeFormat, date1904: boolean): string | number {
  if (!Number.isFinite(value) || value < 0) return value;
  const scale = 10 ** format.fraction;
  // Rounded to the precision shown, as Excel does before it splits days, hours, minutes and seconds.
  const units = Math.round(value * DAY_SECONDS * scale);
  const seconds = Math.floor(units / scale);
  const day = Math.floor(seconds / DAY_SECONDS);
  const inDay = seconds - day * DAY_SECONDS;
  if (format.kind !== 'time') {
    const iso = isoDay(day, date1904);
    if (iso === null) return value;
    if (format.kind === 'date') return iso;
    return `${iso} ${pad(Math.floor(inDay / 3600), 2)}:${pad(Math.floor(inDay / 60) % 60, 2)}:${pad(inDay % 60, 2)}`;
  }
  const ampm = format.tokens.some((t) => t.t === 'ampm');
  let out = '';
  for (const t of format.tokens) {
    switch (t.t) {
      case 'lit':
        out += t.v;
        break;
      case 'h': {
        const h = t.elapsed ? Math.floor(seconds / 3600) : Math.floor(inDay / 3600);
        out += pad(ampm && !t.elapsed ? h % 12 || 12 : h, Math.min(t.width, 2));
        break;
      }
      case 'm':
        out += pad(t.elapsed ? Math.floor(seconds / 60) : Math.floor(inDay / 60) % 60, Math.min(t.width, 2));
        break;
      case 's':
        out += pad(t.elapsed ? seconds : inDay % 60, Math.min(t.width, 2));
        break;
      case 'frac':
        out += `.${pad(units - seconds * scale, format.fraction).slice(0, t.digits)}`;
        break;
      case 'ampm':
        out += inDay < 43_200 ? t.am : t.pm;
        break;
    }
  }
  return out;
}
