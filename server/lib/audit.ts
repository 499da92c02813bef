import { auditObjectName, type AuditAction, type AuditEntity } from '@/domain/platform/audit';
import type { DbOrTx } from '../db/client';
import { auditLogs } from '../db/schema/audit';
import type { Actor } from '../plugins/tenant';

/** Keys never written to the audit log, at any depth (docs/product-rules.md#audit). */
const SECRET_KEY = /hash|password|token|secret/i;

/** A copy of a value without secret keys; dates as ISO strings so the row is plain JSON. */
export function redact(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!SECRET_KEY.test(k)) out[k] = redact(v);
    return out;
  }
  return value;
}

export interface AuditEntry {
  /** 'create', 'update', 'delete', or a screen's own verb: one of src/domain/platform/audit.ts, which labels it. */
  action: AuditAction;
  /** Entity name, e.g. 'class': one of src/domain/platform/audit.ts. */
  entity: AuditEntity;
  entityId?: string | null;
  /** The record's name for the log; by default its `name`/`title` in after (or before) when that is the record itself. */
  entityName?: string | null;
  /** The organisation the entity belongs to; the actor's tenant when omitted. */
  orgId?: string | null;
  before?: unknown;
  after?: unknown;
}

type Auditor = Pick<Actor, 'userId' | 'accountId' | 'tenantOrgId'>;

const rowOf = (actor: Auditor, entry: AuditEntry) => ({
  userId: actor.userId,
  accountId: actor.accountId,
  orgId: entry.orgId ?? actor.tenantOrgId,
  action: entry.action,
  entity: entry.entity,
  entityId: entry.entityId ?? null,
  entityName: entry.entityName ?? auditObjectName(entry.entityId, entry.before, entry.after),
  before: redact(entry.before),
  after: redact(entry.after),
});

/** Records one write; call it inside the write's transaction so the log and the change land together. */
export async function audit(tx: DbOrTx, actor: Auditor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values(rowOf(actor, entry));
}

/** Records a batch's rows (one per record it changed) in one statement; nothing when there are none. */
export async function auditMany(tx: DbOrTx, actor: Auditor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length) await tx.insert(auditLogs).values(entries.map((e) => rowOf(actor, e)));
}
