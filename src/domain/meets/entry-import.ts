/**
 * The sign-up workbook (docs/product-rules.md#meets, "Sign-up import and export"): one row per entry (an athlete in
 * one event). Headers are Chinese whatever the language; the import finds its columns by header in any order and
 * ignores the others (班级, 号码, 状态 of the export), so an export can be filled in and imported again.
 */
export type EntryColumnKey = 'regNo' | 'name' | 'groupName' | 'eventName' | 'seedMark';

export const ENTRY_COLUMNS: readonly { key: EntryColumnKey; header: string; required?: boolean; text?: boolean }[] = [
  { key: 'regNo', header: '学籍号', required: true, text: true },
  { key: 'name', header: '姓名', required: true },
  { key: 'groupName', header: '组别', required: true },
  { key: 'eventName', header: '项目', required: true },
  { key: 'seedMark', header: '参考成绩' },
];

/** The export's extra columns after the workbook columns. */
export const ENTRY_EXPORT_HEADERS = ['班级', '号码', '状态'] as const;

/** Rows one import takes: a large school's meet has a few thousand entries. */
export const ENTRY_IMPORT_MAX_ROWS = 5000;
export const ENTRY_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
