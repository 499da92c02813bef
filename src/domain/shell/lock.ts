import { z } from 'zod';
import { SHA256_HEX } from '../auth/schemas';

/**
 * The lock screen (docs/product-rules.md#lock-screen): the console is covered until the signed-in account's password is
 * typed again; the session stays.
 */

/** The idle times a user may choose (minutes); 0 is off, the default. */
export const IDLE_LOCK_MINUTES = [0, 5, 15, 30, 60] as const;
export type IdleLockMinutes = (typeof IDLE_LOCK_MINUTES)[number];
export const DEFAULT_IDLE_LOCK_MINUTES: IdleLockMinutes = 0;

/** The unlock request: the password as the sign-in sends it (its SHA-256, hex). */
export const unlockRequestSchema = z.object({
  password: z.string({ error: 'auth:lock.passwordRequired' }).regex(SHA256_HEX, 'auth:lock.passwordRequired'),
});
export type UnlockRequest = z.output<typeof unlockRequestSchema>;
