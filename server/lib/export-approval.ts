import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../db/client';
import type { Actor } from '../plugins/tenant';
import { readSecuritySettings } from '../modules/security/settings.service';
import { AppError } from './app-error';

/**
 * Export approval (docs/product-rules.md#personal-data-access, docs/decisions/059-personal-data-views-and-exports.md):
 * a file action or a job action that writes personal data declares `approval: { rows }` and the kit refuses an export
 * of more rows than the organisation's `exportApprovalRows` with 409 `needs approval` (field `exportApproval`, and the
 * export's own `path`). The user then requests it with a reason; an administrator decides; the approved file is built
 * on download from the kept path and query by the same read, so every route that opts in gets the whole flow.
 */
export interface ExportApproval<I> {
  /** How many rows the export of this input would write (people, or their results: one per row of the file). */
  rows(db: DbOrTx, actor: Actor, input: I): Promise<number>;
}

/** The kept input of an export: its path's params and its query (a job's body is kept as its query). */
export interface KeptExport {
  params: Record<string, string> | undefined;
  query: Record<string, string>;
}

/** What the approval flow keeps of an export route to run it later from a kept request. */
export interface ApprovedExport {
  screen: string;
  /** The route's full URL pattern (`/api/busi/web/k12/…/:id/entries/export`). */
  url: string;
  /** Whether the actor holds the route's own permission (asked again at the request and at every download). */
  may(actor: Actor): boolean;
  /** Validates the kept query (a file action's query, a job action's body). */
  query?: z.ZodType;
  /** Validates the kept path params. */
  params?: z.ZodType;
  /** The rows of the kept input (validated): a job's body is its query here. */
  rows(db: DbOrTx, actor: Actor, kept: { query: unknown; params: unknown }): Promise<number>;
  /** Runs the export's read on the kept input and sends its file, as the route would. */
  run(request: FastifyRequest, reply: FastifyReply, actor: Actor, kept: KeptExport): Promise<unknown>;
}

// Keyed by the app's database handle (one per built app), then the export's page key; a page may have several exports.
const exportsOf = new WeakMap<object, Map<string, ApprovedExport[]>>();

export function registerApprovedExport(db: Db, entry: ApprovedExport): void {
  const map = exportsOf.get(db) ?? new Map<string, ApprovedExport[]>();
  // A second app built on the same database (another instance in a test) registers the same exports again: replaced.
  map.set(entry.screen, [...(map.get(entry.screen) ?? []).filter((e) => e.url !== entry.url), entry]);
  exportsOf.set(db, map);
}

const patternOf = (url: string) => new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`);

/**
 * The export of page `screen` that opted into approval at `path` (its params read from it), or undefined. Without a
 * path (a request of a list, which names only its page): the page's one export without path params.
 */
export function approvedExport(db: Db, screen: string, path?: string | null): { entry: ApprovedExport; params: Record<string, string> | undefined } | undefined {
  const entries = exportsOf.get(db)?.get(screen) ?? [];
  if (!path) {
    const entry = entries.find((e) => !e.url.includes(':'));
    return entry && { entry, params: undefined };
  }
  for (const entry of entries) {
    const match = patternOf(entry.url).exec(path);
    if (match) return { entry, params: match.groups ? { ...match.groups } : undefined };
  }
  return undefined;
}

/**
 * The refusal of an export above the threshold; the console's shell opens the request dialog on
 * `field: 'exportApproval'` wherever the export was started and sends back `screen` (the page the export is kept under)
 * and `path` (the export's own path, which names it and its params) with its query.
 */
export async function checkExportRows(db: DbOrTx, actor: Actor, rows: number, screen: string, path: string): Promise<void> {
  const { exportApprovalRows } = await readSecuritySettings(db, actor.tenantOrgId);
  if (rows > exportApprovalRows) throw new AppError(409, 'dataAccess:errors.needsApproval', { rows, threshold: exportApprovalRows }, { field: 'exportApproval', data: { screen, path } });
}
