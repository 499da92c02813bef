import type { TFunction } from 'i18next';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { DeviceRow } from '@/domain/venue/devices';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';

/** The devices of the current filter as a workbook, with the columns of the list. */
export function deviceWorkbook(rows: readonly DeviceRow[], t: TFunction): Buffer {
  const time = new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });
  const head = ['name', 'serialNo', 'mac', 'venue', 'parent', 'status', 'softwareVersion', 'activatedAt'].map((k) => t(`venue:device.${k}`));
  const body = rows.map((r) => [
    r.name,
    r.serialNo,
    r.mac,
    r.venueName,
    r.parentName,
    t(`venue:device.statuses.${r.status}`),
    r.softwareVersion,
    r.activatedAt ? time.format(new Date(r.activatedAt)) : t('venue:device.notActivated'),
  ]);
  return writeXlsx([{ name: t('venue:device.exportName'), rows: [head, ...body], columnWidths: [24, 20, 20, 20, 24, 10, 14, 18], textColumns: [1] }]);
}
