/**
 * The records workbook (docs/product-rules.md#meets, "Records import and export"): the columns of the export, the
 * template and the import, so an export can be filled in and imported again. Headers are Chinese whatever the language
 * (as the class workbook); the import finds its columns by header in any order and ignores the others (状态 of the
 * export). Scopes and result kinds are written as their Chinese names (or their codes); a mark as the screen shows it
 * (12.34, or 2:05.30 for a time of a minute or more).
 */
import { RESULT_KINDS, type ResultKind } from './marks';
import { RECORD_SCOPES, type RecordScope } from './records';

export type RecordColumnKey = 'scope' | 'eventName' | 'groupName' | 'resultKind' | 'mark' | 'holder' | 'className' | 'setOn';

export const RECORD_COLUMNS: readonly { key: RecordColumnKey; header: string; required?: boolean; text?: boolean }[] = [
  { key: 'scope', header: '纪录类型', required: true },
  { key: 'eventName', header: '项目', required: true },
  { key: 'groupName', header: '组别', required: true },
  { key: 'resultKind', header: '成绩类型', required: true },
  { key: 'mark', header: '成绩', required: true, text: true },
  { key: 'holder', header: '保持者', required: true },
  { key: 'className', header: '班级' },
  { key: 'setOn', header: '创造日期', required: true },
];

/** The export's extra column after the workbook columns. */
export const RECORD_STATE_HEADER = '状态';

export const RECORD_SCOPE_NAMES: Record<RecordScope, string> = { meet: '运动会纪录', school: '学校纪录' };
export const RESULT_KIND_NAMES: Record<ResultKind, string> = { time: '计时', distance: '远度', height: '高度', count: '计数', points: '得分' };

/** Rows one import takes: a school keeps a few hundred records with their history. */
export const RECORD_IMPORT_MAX_ROWS = 2000;
export const RECORD_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export function scopeOfText(text: string): RecordScope | null {
  const s = text.trim();
  return (RECORD_SCOPES as readonly string[]).includes(s) ? (s as RecordScope) : (RECORD_SCOPES.find((k) => RECORD_SCOPE_NAMES[k] === s) ?? null);
}

export function resultKindOfText(text: string): ResultKind | null {
  const s = text.trim();
  return (RESULT_KINDS as readonly string[]).includes(s) ? (s as ResultKind) : (RESULT_KINDS.find((k) => RESULT_KIND_NAMES[k] === s) ?? null);
}

/** A date typed as 2025-04-18, 2025/4/18 or 2025.4.18 as an ISO date (the schema then checks it is a real day). */
export function dateOfText(text: string): string {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text.trim());
  return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : text.trim();
}
