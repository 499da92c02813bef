import { uploadForFile, type DownloadedFile, type ProgressHandler } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';

/**
 * POST the national template of a plan (multipart, field `file`): answers the failures workbook whose name
 * carries the counts `…_<success>_<failure>.xlsx` (docs/product-rules.md#import-files, #calls). Refused while a sync runs (docs/product-rules.md#plan-states).
 */
export function importScores(family: Family, planId: string, file: File, onProgress?: ProgressHandler): Promise<DownloadedFile> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadForFile(`${planApi(family)}/import/${encodeURIComponent(planId)}`, form, onProgress);
}
