import type { TFunction } from 'i18next';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { DeviceRow } from '@/domain/venue/devices';
import type { ListSheet } from '../../lib/list-export';

/**
 * The devices of the current filter as the list's sheet: each column names the device list's column it shows, so the
 * export follows the columns the user shows (server/lib/list-export.ts). The parent device sits in the list's name cell.
 */
export function deviceSheet(rows: readonly DeviceRow[], t: TFunction): ListSheet {
  const time = new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });
  const columns: [key: string, list: string, width: number, text?: boolean][] = [
    ['name', 'name', 24],
    ['serialNo', 'serialNo', 20, true],
    ['mac', 'mac', 20],
    ['venue', 'venueName', 20],
    ['parent', 'name', 24],
    ['status', 'status', 10],
    ['softwareVersion', 'softwareVersion', 14],
    ['activatedAt', 'activatedAt', 18],
  ];
  return {
    name: t('venue:device.exportName'),
    columns: columns.map(([key, list, width, text]) => ({ header: t(`venue:device.${key}`), list, width, text })),
    rows: rows.map((r) => [
      r.name,
      r.serialNo,
      r.mac,
      r.venueName,
      r.parentName,
      t(`venue:device.statuses.${r.status}`),
      r.softwareVersion,
      r.activatedAt ? time.format(new Date(r.activatedAt)) : t('venue:device.notActivated'),
    ]),
  };
}
