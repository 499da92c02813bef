import { z } from 'zod';
import { enumFilter } from '../fields';
import { listQuery, textFilter, versionField } from '../list-query';
import { isIsoDate } from '../school/school-years';
import { RESULT_KINDS, parseMark, type ResultKind } from './marks';
import { enumTable } from '../presentation';

/**
 * Meet and school records (docs/product-rules.md#meets), per event name and group name. A published result that beats
 * the current one adds a pending record; approving it makes it current and keeps the one it beat as history.
 */
export const RECORD_SCOPES = ['meet', 'school'] as const;
export type RecordScope = (typeof RECORD_SCOPES)[number];
export const RECORD_SCOPE_TABLE = enumTable(RECORD_SCOPES, (s) => `meets:recordScope.${s}`);
export const RECORD_STATES = ['pending', 'current', 'history'] as const;
export type RecordState = (typeof RECORD_STATES)[number];
export const RECORD_STATE_TABLE = enumTable(RECORD_STATES, (s) => `meets:recordState.${s}`, { current: 'primary', pending: 'plain', history: 'neutral' });

export const recordSaveSchema = z.object({
  scope: z.enum(RECORD_SCOPES, { error: 'meets:v.recordScope' }),
  eventName: z.string({ error: 'meets:v.eventName' }).trim().min(1, 'meets:v.eventName').max(20, 'meets:v.eventNameLength'),
  groupName: z.string({ error: 'meets:v.groupName' }).trim().min(1, 'meets:v.groupName').max(20, 'meets:v.groupNameLength'),
  resultKind: z.enum(RESULT_KINDS, { error: 'meets:v.resultKind' }),
  // A time of a minute or more may be typed as m:ss.xx, as the screens show it.
  mark: z.preprocess((v) => (typeof v === 'string' && v.includes(':') ? (parseMark('time', v) ?? v) : v), z.coerce.number({ error: 'meets:v.mark' }).positive('meets:v.mark').max(100000, 'meets:v.mark')),
  holder: z.string({ error: 'meets:v.holder' }).trim().min(1, 'meets:v.holder').max(20, 'meets:v.holder'),
  className: z.string().trim().max(30).optional().nullable(),
  setOn: z.string({ error: 'validation:date.format' }).refine(isIsoDate, 'validation:date.format'),
  version: versionField.optional(),
});
export type RecordSave = z.output<typeof recordSaveSchema>;

export const recordListQuery = listQuery({
  eventName: textFilter(),
  scope: enumFilter(RECORD_SCOPES),
  state: enumFilter(RECORD_STATES),
});

export interface RecordRow {
  id: string;
  scope: RecordScope;
  eventName: string;
  groupName: string;
  resultKind: ResultKind;
  mark: number;
  holder: string;
  className: string | null;
  setOn: string;
  meetId: string | null;
  state: RecordState;
  version: number;
}

/** A record as the records screen reads it (RecordRow; the OpenAPI document's schema). */
export const recordRowSchema = z.object({
  id: z.string(),
  scope: z.enum(RECORD_SCOPES),
  eventName: z.string(),
  groupName: z.string(),
  resultKind: z.enum(RESULT_KINDS),
  mark: z.number(),
  holder: z.string(),
  className: z.string().nullable(),
  setOn: z.string().describe('ISO date'),
  meetId: z.string().nullable().describe('The meet it was set at'),
  state: z.enum(RECORD_STATES),
  version: z.number().int(),
});
