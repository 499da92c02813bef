import type { Family } from '@/domain/menus/access';
import type { RowUpdate } from '@/domain/people/import-updates';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { DbOrTx } from '../../db/client';
import type { ImportSheet, RowFailure } from '../../lib/import-rows';
import type { Actor } from '../../plugins/tenant';

// The shapes every people import shares (a plan of what to write, the context of a check), apart from the service
// that dispatches to the staff and student imports, so those never import the service back. Reading the file and the
// row loop are the import kit's (server/lib/import-rows.ts).

export type { Family };
export const RAW = { interpolation: { escapeValue: false } };

/** An uploaded people file (the kit's sheet: header, column index, rows, date system). */
export type ParsedFile = ImportSheet<string>;

/** What checking a file found: counts, refused rows, and how to write the accepted ones. */
export interface ImportPlan {
  create: number;
  update: number;
  /** Rows matching an existing record that would change nothing (skipped). */
  unchanged?: number;
  /** Every row that would update an existing record, with what changes. */
  updates?: RowUpdate[];
  parentsCreate?: number;
  parentsUpdate?: number;
  rejected: RowFailure[];
  /** Writes the accepted rows in one transaction. */
  write(db: DbOrTx): Promise<void>;
}

export interface ImportContext {
  db: DbOrTx;
  actor: Actor;
  family: Family;
  t: Translate;
  extra: Record<string, string>;
  /** Called as the rows are checked (a job's progress). */
  onProgress?(done: number, total: number): void | Promise<void>;
}
