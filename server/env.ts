import { z } from 'zod';
import { blankAsUndefined } from '@/domain/fields';

/** A setting left empty (`FOO=`) is unset. */
const optionalSetting = z.preprocess(blankAsUndefined, z.string().optional());

/** The server's environment (README "Environment"); parsed once at start, never read elsewhere. */
export const envSchema = z
  .object({
    NODE_ENV: z.preprocess(blankAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
    PORT: z.preprocess(blankAsUndefined, z.coerce.number().int().min(0).max(65_535).default(8080)),
    HOST: z.preprocess(blankAsUndefined, z.string().default('0.0.0.0')),
    /** Embedded PostgreSQL data directory; ignored when DATABASE_URL is set. */
    PGLITE_DIR: z.preprocess(blankAsUndefined, z.string().default('./data')),
    DATABASE_URL: optionalSetting,
    /**
     * A streaming replica of DATABASE_URL: dashboards, lists, exports and the wall read from it while it keeps up; a
     * user's reads after their own write wait for it or go to the primary (server/plugins/replica.ts, docs/deploy.md).
     */
    DATABASE_REPLICA_URL: optionalSetting,
    /**
     * The reverse proxies whose X-Forwarded-For names the client (Fastify's trustProxy): `true` (any) or
     * addresses/CIDRs separated by commas (e.g. `127.0.0.1`). Unset: the socket's address is the client, so rate limits
     * count per proxy behind one; set it only to the proxies in front, since a trusted header can name any address.
     */
    TRUST_PROXY: optionalSetting,
    /** Every captcha answers this code: for automated tests and demos only. */
    TIYU_CAPTCHA_FIXED: optionalSetting,
    LOG_LEVEL: z.preprocess(blankAsUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
    /** The built web app (vite build output), served under /busi/ when present. */
    WEB_DIST: z.preprocess(blankAsUndefined, z.string().default('dist/web')),
    /** Uploaded files (server/lib/storage), unless S3_BUCKET names object storage. */
    STORAGE_DIR: z.preprocess(blankAsUndefined, z.string().default('./data/files')),
    /** S3-compatible object storage for uploaded files, shared by every server instance. */
    S3_ENDPOINT: z.preprocess(blankAsUndefined, z.url().optional()),
    S3_BUCKET: optionalSetting,
    S3_ACCESS_KEY_ID: optionalSetting,
    S3_SECRET_ACCESS_KEY: optionalSetting,
    S3_REGION: z.preprocess(blankAsUndefined, z.string().default('us-east-1')),
    /** How long a stopping server waits for in-flight requests (uploads, imports) before it exits anyway. */
    /**
     * Days of device and app records the simulator sends through the ingestion API when the demo is first seeded
     * (server/simulate); 0 for none. Default 14, none under NODE_ENV=test unless set (the e2e servers set a few days).
     */
    TIYU_SIMULATE_DAYS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(0).max(90).optional()),
    /**
     * What a first start seeds: 'full' (the demo, default) or 'people' (menus, organisations, classes, people and
     * accounts only, no simulation: a first start in seconds, for tests such as tests/server/db/first-run-kill.test.ts).
     */
    TIYU_DEMO_SEED: z.preprocess(blankAsUndefined, z.enum(['full', 'people']).default('full')),
    SHUTDOWN_GRACE_MS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(0).default(30_000)),
    /** A job whose process died is run again after this many seconds (server/lib/jobs.ts; docs/decisions/026-job-queue.md). */
    TIYU_JOB_EXPIRE_SECONDS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(2).max(86_400).default(15 * 60)),
    /** On PostgreSQL, a job whose worker stopped beating is taken again after this many seconds (server/lib/jobs.ts). */
    TIYU_JOB_HEARTBEAT_SECONDS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(10).max(3_600).default(30)),
    /** How often an idle worker looks for a job nothing woke it for (server/lib/jobs.ts, JOB_POLL_SECONDS; pg-boss's minimum 0.5). */
    TIYU_JOB_POLL_SECONDS: z.preprocess(blankAsUndefined, z.coerce.number().min(0.5).max(3_600).default(0.5)),
    /**
     * Days raw heart-rate samples are kept (docs/product-rules.md#lesson-load); per-minute aggregates stay for good. Unset:
     * the retention schedule's days (docs/product-rules.md#retention); set, it wins over the schedule.
     */
    TIYU_HEART_RATE_RAW_DAYS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(1).max(3650).optional()),
  })
  .superRefine((env, ctx) => {
    // A fixed captcha in production would turn the captcha into a known password.
    if (env.NODE_ENV === 'production' && env.TIYU_CAPTCHA_FIXED) {
      ctx.addIssue({ code: 'custom', path: ['TIYU_CAPTCHA_FIXED'], message: 'TIYU_CAPTCHA_FIXED is refused when NODE_ENV=production' });
    }
  });

export type Env = z.infer<typeof envSchema>;

/** Parses the environment; throws one readable error naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // English for the operator: the domain's error map (src/domain/fields.ts) answers i18n keys meant for users.
  const result = envSchema.safeParse(source, { error: z.locales.en().localeError as z.core.$ZodErrorMap });
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return result.data;
}
