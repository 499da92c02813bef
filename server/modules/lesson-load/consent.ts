import type { Tx } from '../../db/client';
import { consentedStudents } from '../consent/consent.service';

/**
 * The guardian-consent seam of the heart-rate ingest (docs/product-rules.md#lesson-load, "Samples"; #consent): answers
 * which of `studentIds` may have their heart rate stored — those whose guardian gave `heartRate` consent; samples of
 * the others are dropped with reason `consent` and counted. One query per batch, in the caller's transaction, so a
 * withdrawal and a batch do not cross.
 */
export async function heartRateConsented(tx: Tx, studentIds: readonly string[]): Promise<Set<string>> {
  return consentedStudents(tx, 'heartRate', studentIds);
}
