import type { Tx } from '../../db/client';
import type { JobContext, RawQuery, StoredJobResult } from '../../lib/jobs';
import type { Storage } from '../../lib/storage/storage';
import { saveUpload, storeForInsert } from './files.service';

/** What an import leaves (docs/product-rules.md#import-files): the counts and the failures workbook named with them. */
export interface ImportOutcomeFile {
  success: number;
  failure: number;
  workbook: Buffer;
  fileName: string;
}

/** The job's result of an import (docs/product-rules.md#jobs): the failures workbook to download, the counts, a message. */
const resultOf = (file: { id: string; name: string }, o: ImportOutcomeFile): StoredJobResult => ({
  fileId: file.id,
  fileName: file.name,
  counts: { success: o.success, failure: o.failure },
  messageKey: 'jobs:result.import',
  messageParams: { success: o.success, failure: o.failure },
});

const ownerOf = (ctx: JobContext<unknown>) => ({ orgId: ctx.actor.tenantOrgId, userId: ctx.actor.userId });

/** Inside the import's own bulk transaction (`query` one of its statements): the workbook's row and the job's `done`. */
export async function finishImportIn(ctx: JobContext<unknown>, storage: Storage, query: RawQuery, o: ImportOutcomeFile): Promise<void> {
  const stored = await storeForInsert(ctx.db, storage, ownerOf(ctx), 'attachment', o.fileName, o.workbook, ctx.now());
  await ctx.finishIn(query, resultOf(await stored.insertIn(query), o));
}

/** Through `finish`: `write` (the import's write, if any) then the workbook's row and the job's `done`, one transaction. */
export async function finishImport(ctx: JobContext<unknown>, storage: Storage, write: (tx: Tx) => Promise<ImportOutcomeFile>): Promise<void> {
  await ctx.finish(async (tx) => {
    const o = await write(tx);
    return resultOf(await saveUpload(tx, storage, ownerOf(ctx), 'attachment', o.fileName, o.workbook, ctx.now()), o);
  });
}
