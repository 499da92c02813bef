import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../db/client';
import type { Actor } from '../plugins/tenant';
import { readSecuritySettings } from '../modules/security/settings.service';
import { AppError } from './app-error';

/**
 * Export approval (docs/product-rules.md#personal-data-access, docs/decisions/059-personal-data-views-and-exports.md):
 * a file action declares `approval: { rows }` and the kit refuses an export of more rows than the organisation's
 * `exportApprovalRows` with 409 `needs approval` (field `exportApproval`). The user then requests it with a reason on
 * the page key's export; an administrator decides; the approved file is built on download from the kept query by the
 * same read, so every route that opts in gets the whole flow.
 */
export interface ExportApproval<I> {
  /** How many rows the export of this input would write. */
  rows(db: DbOrTx, actor: Actor, input: I): Promise<number>;
}

/** What the approval flow keeps of an export route to run it later from a kept query. */
export interface ApprovedExport {
  screen: string;
  query?: z.ZodType;
  rows(db: DbOrTx, actor: Actor, input: { query: unknown; params: unknown; body: unknown }): Promise<number>;
  /** Runs the export's read on the kept query and sends its file, as the route would. */
  run(request: FastifyRequest, reply: FastifyReply, actor: Actor, query: Record<string, string>): Promise<unknown>;
}

// Keyed by the app's database handle (one per built app), then the export's page key.
const exportsOf = new WeakMap<object, Map<string, ApprovedExport>>();

export function registerApprovedExport(db: Db, entry: ApprovedExport): void {
  const map = exportsOf.get(db) ?? new Map<string, ApprovedExport>();
  // One per page key; a second app built on the same database (another instance in a test) registers the same exports again.
  map.set(entry.screen, entry);
  exportsOf.set(db, map);
}

/** The export of page `screen` that opted into approval, or undefined. */
export const approvedExport = (db: Db, screen: string): ApprovedExport | undefined => exportsOf.get(db)?.get(screen);

/** The refusal of an export above the threshold; the list opens the request dialog on `field: 'exportApproval'`. */
export async function checkExportRows(db: DbOrTx, actor: Actor, rows: number): Promise<void> {
  const { exportApprovalRows } = await readSecuritySettings(db, actor.tenantOrgId);
  if (rows > exportApprovalRows) throw new AppError(409, 'dataAccess:errors.needsApproval', { rows, threshold: exportApprovalRows }, { field: 'exportApproval' });
}
