import { randomUUID } from 'node:crypto';
import { PEOPLE_IMPORT_TTL_MS, type PeopleImportKind } from '@/domain/people/people-import';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../plugins/tenant';

/**
 * Uploaded files between a dry run and its commit: kept for a few minutes under a random id, bound to the organisation
 * and the account that uploaded them, read again (and checked again) by the commit. At most a few files per server:
 * a new upload evicts the oldest beyond the byte budget.
 */

export interface PendingImport {
  kind: PeopleImportKind;
  family: string;
  orgId: string;
  accountId: string;
  fileName: string;
  buffer: Buffer;
  /** What the import needs besides the file (school year and semester of a student import). */
  context: Record<string, string>;
  expires: number;
}

const BUDGET_BYTES = 256 * 1024 * 1024;
const pending = new Map<string, PendingImport>();

function sweep(now: number) {
  for (const [id, p] of pending) if (p.expires <= now) pending.delete(id);
  let bytes = [...pending.values()].reduce((n, p) => n + p.buffer.length, 0);
  for (const [id, p] of pending) {
    if (bytes <= BUDGET_BYTES) break;
    pending.delete(id);
    bytes -= p.buffer.length;
  }
}

export function keepImport(entry: Omit<PendingImport, 'expires'>, now = Date.now()): { id: string; expiresAt: Date } {
  sweep(now);
  const id = randomUUID();
  const expires = now + PEOPLE_IMPORT_TTL_MS;
  pending.set(id, { ...entry, expires });
  return { id, expiresAt: new Date(expires) };
}

/** The pending file of this organisation, account, kind and family; 404 when it expired, was used or is someone else's. */
export function takeImport(id: string, actor: Actor, kind: PeopleImportKind, family: string, now = Date.now()): PendingImport {
  sweep(now);
  const p = pending.get(id);
  if (!p || p.orgId !== actor.tenantOrgId || p.accountId !== actor.accountId || p.kind !== kind || p.family !== family) throw new AppError(404, 'people:import.expired');
  return p;
}

export function dropImport(id: string): void {
  pending.delete(id);
}
