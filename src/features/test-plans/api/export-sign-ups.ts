import { download, saveFile } from '@/lib/api-client';
import { planApi } from '../family';
import type { Family } from '@/domain/menus/access';

/** GET the plan's sign-up list (.xlsx) and hand it to the browser. */
export async function exportSignUps(family: Family, planId: string): Promise<void> {
  const file = await download(`${planApi(family)}/signUp/export/${encodeURIComponent(planId)}`);
  saveFile(file, 'sign-ups.xlsx');
}
