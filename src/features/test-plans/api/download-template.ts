import { download, saveFile } from '@/lib/api-client';
import { planApi, type PlanFamily } from '../family';

/** GET the empty national template (issue 3 §3) and hand it to the browser. */
export async function downloadTemplate(family: PlanFamily): Promise<void> {
  const file = await download(`${planApi(family)}/import/template`);
  saveFile(file, 'template.xlsx');
}
