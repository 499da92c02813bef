import { upload, type ProgressHandler } from '@/lib/api-client';
import type { StartedJob } from '@/components/import-dialog/import-dialog';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';

/**
 * POST the national template of a plan (multipart, field `file`): answers the import job (docs/product-rules.md#jobs),
 * whose result holds the counts and the failures workbook `…_<success>_<failure>.xlsx` (docs/product-rules.md#import-files).
 * Refused while a sync runs (docs/product-rules.md#plan-states).
 */
export async function importScores(family: Family, planId: string, file: File, onProgress?: ProgressHandler): Promise<StartedJob> {
  const form = new FormData();
  form.append('file', file, file.name);
  const { id } = await upload<{ id: string }>(`${planApi(family)}/import/${encodeURIComponent(planId)}`, form, onProgress);
  return { jobId: id };
}
