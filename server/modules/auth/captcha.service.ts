import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { eq, lt } from 'drizzle-orm';
import type * as SvgCaptcha from 'svg-captcha';
import { CAPTCHA_TTL_MS } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import type { DbOrTx } from '../../db/client';
import { captchas } from '../../db/schema/auth';
import { AppError } from '../../lib/app-error';
import { hashSecret } from '../../lib/tokens';

// svg-captcha's module is itself the "render this text" function, which its typings omit.
type SvgCaptchaModule = typeof SvgCaptcha & ((text: string, options?: SvgCaptcha.ConfigObject) => string);
// Loaded with the first captcha, not at start-up.
let svgCaptchaModule: SvgCaptchaModule | undefined;
const svgCaptcha = ((text: string, options?: SvgCaptcha.ConfigObject) =>
  (svgCaptchaModule ??= createRequire(import.meta.url)('svg-captcha') as SvgCaptchaModule)(text, options)) as SvgCaptchaModule;

/** Letters and digits without the ones people confuse (0/O/o, 1/I/l, 9/g/q …). */
const CAPTCHA_CHARS = 'abcdefhjkmnprstuvwxyzABCDEFGHJKMNPRSTUVWXYZ2345678';
const CAPTCHA_LENGTH = 4;

const CAPTCHA_OPTIONS: SvgCaptcha.ConfigObject = {
  noise: 2,
  color: true,
  background: '#f5f7fa',
  width: 120,
  height: 40,
  fontSize: 44,
};

function randomAnswer(): string {
  let text = '';
  for (let i = 0; i < CAPTCHA_LENGTH; i++) text += CAPTCHA_CHARS[randomInt(CAPTCHA_CHARS.length)];
  return text;
}

const answerHash = (answer: string) => hashSecret(answer.trim().toLowerCase());

/**
 * Draws a new captcha for `randomStr` and stores the hash of its answer (replacing any earlier
 * one for the same key). `fixedCode` (TIYU_CAPTCHA_FIXED) makes the answer that code.
 */
export async function issueCaptcha(db: DbOrTx, now: Date, randomStr: string, fixedCode?: string): Promise<string> {
  const text = fixedCode ?? randomAnswer();
  const svg = svgCaptcha(text, CAPTCHA_OPTIONS);
  const row = { answerHash: answerHash(text), expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS), attempts: 0 };
  // Expired answers are useless; clearing them here keeps the table small without a job.
  await db.delete(captchas).where(lt(captchas.expiresAt, now));
  await db.insert(captchas).values({ randomStr, ...row }).onConflictDoUpdate({ target: captchas.randomStr, set: row });
  return svg;
}

/**
 * Checks and consumes a captcha: the answer is deleted on the first check, right or wrong, so it
 * cannot be guessed repeatedly. Unknown or used keys count as expired.
 */
export async function checkCaptcha(db: DbOrTx, now: Date, randomStr: string, code: string): Promise<void> {
  const [row] = await db.delete(captchas).where(eq(captchas.randomStr, randomStr)).returning();
  if (!row || row.expiresAt.getTime() <= now.getTime()) throw new AppError(400, ERR.captchaExpired);
  if (row.answerHash !== answerHash(code)) throw new AppError(400, ERR.captchaWrong);
}
