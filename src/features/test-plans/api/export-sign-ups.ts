import { download, saveFile } from '@/lib/api-client';
import { planApi, type PlanFamily } from '../family';

/** GET the plan's sign-up list (.xlsx) and hand it to the browser. */
export async function exportSignUps(family: PlanFamily, planId: string): Promise<void> {
  const file = await download(`${planApi(family)}/signUp/export/${encodeURIComponent(planId)}`);
  saveFile(file, 'sign-ups.xlsx');
}
