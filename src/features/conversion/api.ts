import type { ConversionHead, ConversionRow, ConversionSave } from '@/domain/conversion/conversion';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { uploadForFile, type ProgressHandler } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

const cache = new Map<string, Resource<ConversionRow, ConversionSave>>();

/** A district's 中考体育 conversion table versions (physiqueManage/conversion). */
export function conversionTables(family: ServedBy<'test.conversion'>): Resource<ConversionRow, ConversionSave> {
  const key = `${family}.test.conversion`;
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<ConversionRow, ConversionSave>({ base: pageApi(key) })));
  return r;
}

/** Uploads a table's steps as a new version: the head (name, stage, year, basis, full marks) goes as form fields before the file. */
export function importConversion(family: ServedBy<'test.conversion'>, head: Partial<Record<keyof ConversionHead, string>>, file: File, onProgress?: ProgressHandler) {
  const form = new FormData();
  for (const [k, v] of Object.entries(head)) if (v != null) form.append(k, v);
  form.append('file', file, file.name);
  return uploadForFile(`${conversionTables(family).base}/import`, form, onProgress);
}
