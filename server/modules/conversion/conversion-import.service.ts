import { CONVERSION_COLUMNS, type ConversionColumnKey } from '@/domain/conversion/conversion-import';
import { CONVERSION_ROWS_MAX, conversionHeadSchema, stepMessage, stepProblem, type ConversionStep } from '@/domain/conversion/conversion';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { Db } from '../../db/client';
import { fieldError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { importRows, readImportSheet } from '../../lib/import-rows';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import type { Actor } from '../../plugins/tenant';
import { createConversion } from './conversion.service';

const RAW = { interpolation: { escapeValue: false } };
const LABEL: Record<ConversionColumnKey, string> = { min: 'conversion:field.min', points: 'conversion:field.points' };

/** The import template: the headers and a few example steps (ascending thresholds). */
export function conversionTemplate(t: Translate) {
  const rows = [CONVERSION_COLUMNS.map((c) => c.header), [60, 30], [70, 36], [80, 42], [90, 47], [95, 50]];
  return { workbook: writeXlsx([{ name: t('conversion:import.sheetName', RAW), rows, columnWidths: [12, 12] }]), fileName: `${t('conversion:import.templateName', RAW)}.xlsx` };
}

/**
 * Uploads a table as a new version (docs/product-rules.md#physique-year: 中考体育 conversion), all or nothing on the
 * row-import kit: the dialog's fields (name, stage, year, basis, full mark) are the table's head, each row a step,
 * judged with the row before it (ascending, no threshold twice, points within the full mark and never falling).
 */
export async function importConversion(db: Db, actor: Actor, file: { fileName: string; buffer: Buffer; fields: Record<string, string> }, t: Translate) {
  const head = conversionHeadSchema.safeParse(file.fields);
  if (!head.success) {
    const issue = head.error.issues[0];
    throw fieldError(String(issue.path[0] ?? 'name'), issue.message as `${string}:${string}`);
  }
  const sheet = await readImportSheet(file, { columns: CONVERSION_COLUMNS, maxRows: CONVERSION_ROWS_MAX }, t);
  const steps: ConversionStep[] = [];
  return importRows(db, sheet, {
    t,
    labels: LABEL,
    fileName: t('conversion:import.resultName', RAW),
    each(_row, { number, fail }) {
      const min = number('min');
      if (min === null) return fail('min', 'conversion:validation.minRequired');
      const points = number('points');
      if (points === null) return fail('points', 'conversion:validation.pointsRequired');
      const found = stepProblem({ min, points }, steps.at(-1), head.data.maxPoints);
      if (found) return fail(found.field, stepMessage(found.problem));
      steps.push({ min, points });
    },
    async after(tx) {
      const made = await createConversion(tx, actor, { ...head.data, rows: steps });
      await audit(tx, actor, { action: 'import', entity: 'conversionTable', entityId: made.id, before: null, after: made });
    },
  });
}
