import type { ActivityKind } from '@/domain/activities/items';
import type { DbOrTx } from '../../db/client';

/** One record about to be written into activity_records, as the ingestion path sees it. */
export interface RefCheckRecord {
  readonly orgId: string;
  readonly studentId: string;
  readonly classId: string;
  readonly item: string;
  readonly value: number;
  readonly measuredAt: Date;
  readonly refId: string | null;
}

/**
 * Whether a record may be written under its `ref_id` (docs/product-rules.md#activities): a contest entry only while the
 * contest runs and for a student in its scope, a homework submission only for a student of a class it was published
 * to, before its end, and so on. Returns null to accept, or an i18n key (with params) naming why the record is
 * refused; the ingestion path reports it per record and writes nothing for that record.
 *
 * Checks run inside the batch's transaction, once per record: read what they need once per batch into `cache` (which
 * lives as long as one batch; e.g. the contest and the class, a training plan's target students), never one query per
 * record (a batch has up to 1,000).
 */
export type RefCheck = (
  db: DbOrTx,
  record: RefCheckRecord,
  cache: Map<string, unknown>,
) => Promise<{ key: string; params?: Record<string, unknown> } | null>;

const checks = new Map<ActivityKind, RefCheck>();

/**
 * Each module that owns a kind (contests, homework, special training, lessons) registers its check once at start-up,
 * from its routes plugin. Kinds without a check ('exercise') need no `ref_id`.
 */
export function registerRefCheck(kind: ActivityKind, check: RefCheck): void {
  checks.set(kind, check);
}

export function refCheckOf(kind: ActivityKind): RefCheck | undefined {
  return checks.get(kind);
}
