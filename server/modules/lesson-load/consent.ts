import type { Tx } from '../../db/client';

/**
 * The guardian-consent seam of the heart-rate ingest (docs/product-rules.md#lesson-load, "Samples"): answers which of
 * `studentIds` may have their heart rate stored; samples of the others are dropped with reason `consent` and counted.
 * Until the guardian-consent register exists every student is answered. The data-protection issue replaces this
 * body with a read of that register (in the caller's transaction, so a withdrawal and a batch do not cross).
 */
export async function heartRateConsented(_tx: Tx, studentIds: readonly string[]): Promise<Set<string>> {
  return new Set(studentIds);
}
