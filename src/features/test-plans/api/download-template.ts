import { download, saveFile } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';

/**
 * GET the national template (docs/product-rules.md#physique-results: score import) and hand it to the browser: blank, or with `planId` pre-filled with the
 * plan's students and a notes sheet explaining the codes.
 */
export async function downloadTemplate(family: Family, planId?: string): Promise<void> {
  const file = await download(`${planApi(family)}/import/template`, planId ? { planId } : undefined);
  saveFile(file, 'template.xlsx');
}
