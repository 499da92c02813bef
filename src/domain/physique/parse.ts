import type { ItemKey } from './standard';

/** What people type results for: every item plus height and weight (from which BMI is computed). */
export type ParseField = ItemKey | 'heightCm' | 'weightKg';

export type ParseErrorKey =
  | 'physique:parse.empty'
  | 'physique:parse.invalidTime'
  | 'physique:parse.invalidSprint'
  | 'physique:parse.invalidCount'
  | 'physique:parse.invalidJump'
  | 'physique:parse.invalidReach'
  | 'physique:parse.invalidHeight'
  | 'physique:parse.invalidWeight'
  | 'physique:parse.invalidVolume'
  | 'physique:parse.invalidBmi'
  | 'physique:parse.secondsOverflow'
  | 'physique:parse.outOfRange';

export type ParseResult =
  | { ok: true; value: number }
  | { ok: false; error: ParseErrorKey; params?: { min: number; max: number } };

type Kind = 'longTime' | 'sprint' | 'count' | 'length' | 'volume' | 'mass' | 'bmi';

interface FieldRule {
  kind: Kind;
  /** Plausible range in the field's unit (s, cm, ml, kg, count, kg/m²); catches unit mix-ups such as 1.85 for a jump. */
  min: number;
  max: number;
  error: ParseErrorKey;
}

/** Parsing rule per field. Ranges are generous sanity bounds, not rules of the standard. */
export const PARSE_RULES: Readonly<Record<ParseField, Readonly<FieldRule>>> = {
  bmi: { kind: 'bmi', min: 5, max: 80, error: 'physique:parse.invalidBmi' },
  heightCm: { kind: 'length', min: 50, max: 250, error: 'physique:parse.invalidHeight' },
  weightKg: { kind: 'mass', min: 10, max: 250, error: 'physique:parse.invalidWeight' },
  vitalCapacity: { kind: 'volume', min: 100, max: 10_000, error: 'physique:parse.invalidVolume' },
  run50m: { kind: 'sprint', min: 4, max: 60, error: 'physique:parse.invalidSprint' },
  sitAndReach: { kind: 'length', min: -50, max: 50, error: 'physique:parse.invalidReach' },
  rope1min: { kind: 'count', min: 0, max: 400, error: 'physique:parse.invalidCount' },
  sitUp1min: { kind: 'count', min: 0, max: 100, error: 'physique:parse.invalidCount' },
  shuttle50x8: { kind: 'longTime', min: 40, max: 600, error: 'physique:parse.invalidTime' },
  standingLongJump: { kind: 'length', min: 10, max: 400, error: 'physique:parse.invalidJump' },
  pullUp: { kind: 'count', min: 0, max: 100, error: 'physique:parse.invalidCount' },
  run1000m: { kind: 'longTime', min: 120, max: 1200, error: 'physique:parse.invalidTime' },
  run800m: { kind: 'longTime', min: 100, max: 1200, error: 'physique:parse.invalidTime' },
};

// Minute and second marks as typed on Chinese and Western keyboards (after NFKC and quote folding below).
const MIN = String.raw`(?:'|:|分钟|分鐘|分|min|m)`;
const SEC = String.raw`(?:"|秒钟|秒鐘|秒|sec|s)`;
const MIN_SEC = new RegExp(String.raw`^(\d+)${MIN}(\d{1,2}(?:\.\d+)?)${SEC}?$`);
const MIN_SEC_FRACTION = new RegExp(String.raw`^(\d+)${MIN}(\d{1,2})${SEC}(\d{1,2})$`);
/** h:mm:ss, as a cell under a time format shows a run time (00:03:40, 0:03:40.5). */
const HOUR_MIN_SEC = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/;
const MIN_ONLY = /^(\d+)(?:'|分钟|分鐘|分|min)$/;
const SEC_ONLY = new RegExp(String.raw`^(\d+(?:\.\d+)?)${SEC}$`);
const SEC_MARK_FRACTION = /^(\d+)"(\d{1,2})$/;
const BARE = /^\d+(?:\.\d+)?$/;
const BARE_MIN_DOT_SEC = /^(\d+)\.(\d{1,2})$/;
const COUNT = /^(\d+)(?:\.0+)?(?:次|个|個|下|reps?|times?)?$/;
const LENGTH = /^(-?\d+(?:\.\d+)?)(cm|厘米|公分|mm|毫米|m|米|公尺)?$/;
const METRE_CM = /^(\d+)(?:m|米|公尺)(\d{1,2})(?:cm|厘米|公分)?$/;
const VOLUME = /^(\d+(?:\.\d+)?)(ml|毫升|l|升|公升)?$/;
const MASS = /^(\d+(?:\.\d+)?)(kg|公斤|千克)?$/;
const BMI = /^(\d+(?:\.\d+)?)(?:kg\/m2|千克\/米2|公斤\/公尺2)?$/;

/** Removes binary noise of unit conversions (1.85 × 100 = 185.00000000000003). */
const clean = (x: number) => Math.round(x * 1e6) / 1e6 + 0; // + 0 turns -0 into 0

function normalise(input: string): string {
  return input
    .normalize('NFKC') // full-width digits and colons, ″ → ′′, ² → 2
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/′′|''|[″”“〃]/g, '"')
    .replace(/[′’‘´`]/g, "'")
    .replace(/[−–—]/g, '-');
}

type Parsed = number | 'overflow' | null;

function minSec(minutes: string, seconds: string, fraction = ''): Parsed {
  const s = Number(seconds) + (fraction ? Number(`0.${fraction}`) : 0);
  if (s >= 60) return 'overflow';
  return Number(minutes) * 60 + s;
}

function parseTime(s: string, bareDotIsMinutes: boolean): Parsed {
  let m = HOUR_MIN_SEC.exec(s);
  if (m) {
    if (Number(m[2]) >= 60) return 'overflow';
    const rest = minSec(m[2], m[3]);
    return rest === 'overflow' || rest === null ? rest : Number(m[1]) * 3600 + rest;
  }
  m = MIN_SEC_FRACTION.exec(s);
  if (m) return minSec(m[1], m[2], m[3]);
  m = MIN_SEC.exec(s);
  if (m) return minSec(m[1], m[2]);
  m = MIN_ONLY.exec(s);
  if (m) return Number(m[1]) * 60;
  m = SEC_ONLY.exec(s);
  if (m) return Number(m[1]);
  m = SEC_MARK_FRACTION.exec(s);
  if (m) return Number(`${m[1]}.${m[2]}`);
  if (!BARE.test(s)) return null;
  if (!s.includes('.') || !bareDotIsMinutes) return Number(s);
  // National export writes long runs as minutes.seconds: 3.40 = 3'40"; Excel drops the trailing zero, so 3.4 = 3'40" too.
  m = BARE_MIN_DOT_SEC.exec(s);
  if (!m) return null;
  return minSec(m[1], m[2].length === 1 ? `${m[2]}0` : m[2]);
}

function parseLength(s: string, allowNegative: boolean): Parsed {
  let m = METRE_CM.exec(s);
  if (m) return Number(m[1]) * 100 + Number(m[2].length === 1 ? `${m[2]}0` : m[2]);
  m = LENGTH.exec(s);
  if (!m) return null;
  const v = Number(m[1]);
  if (v < 0 && !allowNegative) return null;
  const unit = m[2];
  if (unit === 'm' || unit === '米' || unit === '公尺') return v * 100;
  if (unit === 'mm' || unit === '毫米') return v / 10;
  return v;
}

function parseByKind(kind: Kind, s: string, field: ParseField): Parsed {
  switch (kind) {
    case 'longTime':
      return parseTime(s, true);
    case 'sprint':
      return parseTime(s, false);
    case 'count': {
      const m = COUNT.exec(s);
      return m ? Number(m[1]) : null;
    }
    case 'length':
      return parseLength(s, field === 'sitAndReach');
    case 'volume': {
      const m = VOLUME.exec(s);
      if (!m) return null;
      return m[2] === 'l' || m[2] === '升' || m[2] === '公升' ? Number(m[1]) * 1000 : Number(m[1]);
    }
    case 'mass': {
      const m = MASS.exec(s);
      return m ? Number(m[1]) : null;
    }
    case 'bmi': {
      const m = BMI.exec(s);
      return m ? Number(m[1]) : null;
    }
  }
}

/**
 * Parses a result as people type it into the field's unit (seconds, cm, ml, kg, count, kg/m²) (docs/product-rules.md#physique-scoring):
 * times 3'40", 3′40, 3:40, 03:40, 00:03:40 (as a cell under a time format shows it), 3分40秒, 3.40 (minutes.seconds for the long runs and shuttle), 220 (seconds), 8.5 (50 m seconds);
 * lengths 185cm, 1.85m, 1米85, -2.5; counts 12, 12次; volume 3500, 3500ml, 3.5L. Errors are i18n keys of namespace physique.
 */
export function parseRaw(field: ParseField, input: string | number | null | undefined): ParseResult {
  const parsed = parseUnbounded(field, input);
  if (parsed.ok && !inPlausibleRange(field, parsed.value)) return { ok: false, error: 'physique:parse.outOfRange', params: { min: PARSE_RULES[field].min, max: PARSE_RULES[field].max } };
  return parsed;
}

/** Whether a value (in the field's unit) is inside the field's plausible range of PARSE_RULES. */
export function inPlausibleRange(field: ParseField, value: number): boolean {
  const rule = PARSE_RULES[field];
  return value >= rule.min && value <= rule.max;
}

/**
 * parseRaw without the plausible range: what was typed, in the field's unit. A test-day station stops a value outside
 * the range for a second look rather than refusing it (docs/product-rules.md#physique-year, test day).
 */
export function parseUnbounded(field: ParseField, input: string | number | null | undefined): ParseResult {
  const rule = PARSE_RULES[field];
  if (input == null) return { ok: false, error: 'physique:parse.empty' };
  if (typeof input === 'number' && !Number.isFinite(input)) return { ok: false, error: rule.error };
  const s = normalise(String(input));
  if (s === '') return { ok: false, error: 'physique:parse.empty' };
  const parsed = parseByKind(rule.kind, s, field);
  if (parsed === null) return { ok: false, error: rule.error };
  if (parsed === 'overflow') return { ok: false, error: 'physique:parse.secondsOverflow' };
  return { ok: true, value: clean(parsed) };
}
