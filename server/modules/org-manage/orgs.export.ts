import type { TFunction } from 'i18next';
import type { OrgRow } from '@/domain/org-manage/orgs';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';

/** The organisation list as a workbook: name (indented by depth), code, type, superior, status, device counts. */
export function orgWorkbook(rows: readonly OrgRow[], t: TFunction): Buffer {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const depth = (r: OrgRow): number => (r.parentId && byId.has(r.parentId) ? 1 + depth(byId.get(r.parentId)!) : 0);
  const head = ['name', 'code', 'type', 'superior', 'status', 'activatableDevices', 'activatedDevices'].map((k) => t(`orgManage:orgs.${k}`));
  const body = rows.map((r) => [
    `${'  '.repeat(depth(r))}${r.name}`,
    r.code,
    t(`orgManage:type.${r.type}`),
    (r.parentId && byId.get(r.parentId)?.name) ?? '',
    t(r.enabled ? 'orgManage:orgs.enabled' : 'orgManage:orgs.disabled'),
    r.activatableDevices,
    r.activatedDevices,
  ]);
  return writeXlsx([{ name: t('orgManage:orgs.exportName'), rows: [head, ...body], columnWidths: [30, 8, 12, 30, 8, 14, 14], textColumns: [1] }]);
}
