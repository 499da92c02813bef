/**
 * What a test card's QR code holds (docs/product-rules.md#physique-year, test day): the student's 学籍号 and the plan,
 * so a station scanning a card of another plan says so instead of checking in the wrong test. Plain text, so any
 * scanner (and a person reading it aloud) gets the 学籍号.
 */
import { REG_NO_MAX, REG_NO_PATTERN } from '../people/students';

const PREFIX = 'TIYU1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isRegNo = (s: string) => s.length > 0 && s.length <= REG_NO_MAX && REG_NO_PATTERN.test(s);

export function testCardCode(planId: string, regNo: string): string {
  return `${PREFIX}|${planId}|${regNo}`;
}

/**
 * The plan and 学籍号 of a scanned code. A bare 学籍号 (typed, or a card printed elsewhere) has no plan. Null for
 * anything else (another QR code held up by mistake).
 */
export function parseTestCardCode(text: string): { planId: string | null; regNo: string } | null {
  const value = text.trim();
  const parts = value.split('|');
  if (parts.length === 3 && parts[0] === PREFIX && UUID.test(parts[1]) && isRegNo(parts[2])) {
    return { planId: parts[1].toLowerCase(), regNo: parts[2] };
  }
  if (isRegNo(value)) return { planId: null, regNo: value };
  return null;
}
