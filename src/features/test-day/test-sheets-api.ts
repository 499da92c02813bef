import { useQuery } from '@tanstack/react-query';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { ALL_CLASSES, type TestSheetKind, type TestSheetOptions } from '@/domain/test-day/test-sheets';
import type { ItemKey } from '@/domain/physique/standard';
import { download, get, saveFile } from '@/lib/api-client';

/** A test day's printed sheets (server/modules/test-day/test-sheets.routes.ts; docs/product-rules.md#physique-year, "Test sheets"). */
export type TestDayFamily = ServedBy<'test.testDay'>;

export const testSheetsBase = (family: TestDayFamily, planId: string) => `${pageApi(`${family}.test.testDay`)}/sheets/${planId}`;

/** The plan's classes (with their students) and items the caller may print; loaded while `enabled` (the dialog is open). */
export function useTestSheetOptions(family: TestDayFamily, planId: string, enabled = true) {
  return useQuery({
    queryKey: ['testSheets', family, planId, 'options'],
    queryFn: () => get<TestSheetOptions>(`${testSheetsBase(family, planId)}/options`),
    enabled: enabled && !!planId,
  });
}

/** Downloads test cards or a station roster as PDF and hands it to the browser; resolves with the file's name. */
export async function downloadTestSheet(family: TestDayFamily, planId: string, sheet: { kind: TestSheetKind; classId: string; items: readonly ItemKey[] }): Promise<string> {
  const classId = sheet.classId === ALL_CLASSES ? undefined : sheet.classId;
  const file =
    sheet.kind === 'cards'
      ? await download(`${testSheetsBase(family, planId)}/cards.pdf`, { classId })
      : await download(`${testSheetsBase(family, planId)}/roster.pdf`, { classId, items: sheet.items.join(',') });
  const name = file.fileName || `${sheet.kind}.pdf`;
  saveFile(file, name);
  return name;
}
