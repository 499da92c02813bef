import type { TFunction } from 'i18next';
import { CONSENT_PURPOSES, type ConsentRow } from '@/domain/consent/consent';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';

/** The register as a workbook (docs/product-rules.md#consent): one row per student, one column per purpose. */
export function consentWorkbook(rows: readonly ConsentRow[], t: TFunction): { workbook: Buffer; fileName: string } {
  const head = [t('consent:column.name'), t('consent:column.regNo'), t('consent:column.className'), ...CONSENT_PURPOSES.map((p) => t(`consent:purpose.${p}`))];
  const body = rows.map((r) => [r.name, r.regNo, r.className, ...CONSENT_PURPOSES.map((p) => t(`consent:status.${r.consents[p]}`))]);
  const name = t('consent:exportName');
  return { workbook: writeXlsx([{ name, rows: [head, ...body], columnWidths: [10, 22, 14, ...CONSENT_PURPOSES.map(() => 12)] }]), fileName: `${name}.xlsx` };
}
