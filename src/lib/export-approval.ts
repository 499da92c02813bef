// The export approval request (docs/product-rules.md#personal-data-access): a tiny module-level store, so the API
// client opens the shell's one request dialog (src/components/export-approval) on any export the server refuses as
// needing an approval, wherever the export was started (a list, a detail page's button, a print dialog, a job).

/** The field of the server's refusal of an export that needs an approval (server/lib/export-approval.ts). */
export const EXPORT_APPROVAL_FIELD = 'exportApproval';

/** A refused export, as the request keeps it: its page, its path (with its params) and its query (a job's body). */
export interface ExportApprovalAsk {
  /** The server's message: how many rows, above which threshold. */
  message: string;
  /** The catalogue page the export is kept under ('k12.homework.manage'). */
  screen: string;
  /** The export's own path as the refusal named it. */
  path: string;
  /** The query the export was called with (a job's body), strings only, empty values left out. */
  query: Record<string, string>;
}

let current: ExportApprovalAsk | null = null;
const listeners = new Set<() => void>();

function emit(next: ExportApprovalAsk | null) {
  current = next;
  for (const l of listeners) l();
}

/** Calls `listener` whenever the request to show changes (the dialog's useSyncExternalStore). */
export function subscribeExportApproval(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentExportApproval(): ExportApprovalAsk | null {
  return current;
}

/**
 * Opens the request dialog; false when no dialog is mounted (a screen outside the signed-in shell), so the caller
 * still shows the refusal's message itself.
 */
export function askExportApproval(ask: ExportApprovalAsk): boolean {
  if (listeners.size === 0) return false;
  emit(ask);
  return true;
}

export function closeExportApproval(): void {
  emit(null);
}

/** The call's query as the request keeps it: strings, with empty values (undefined, null, '') left out. */
export function keptQuery(input: unknown): Record<string, string> {
  if (typeof input !== 'object' || input === null) return {};
  return Object.fromEntries(Object.entries(input).flatMap(([k, v]) => (v === undefined || v === null || v === '' ? [] : [[k, String(v)]])));
}
