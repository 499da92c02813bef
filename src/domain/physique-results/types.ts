import type { z } from 'zod';
import type { itemResultSchema } from '../physique/answer-fields';

// The answers' types are zod outputs (./answers, the API document's schemas; docs/product-rules.md#physique-results).
export type {
  ReportHistoryEntry,
  ReportItem,
  ResultDetail,
  ResultLogAction,
  ResultLogRow,
  ResultRow,
  ResultSource,
  ScoreSearchPage,
  ScoreSummary,
  StudentReport,
  SyncChange,
  SyncPreview,
  SyncSummary,
  TestRecordRow,
} from './answers';

/** One item of a result as the screens show it (raw value, score, level or BMI band, bonus). */
export type ItemResult = z.output<typeof itemResultSchema>;

/** Answer of invalid/restore calls (changedCountSchema). */
export interface ChangedCount {
  changed: number;
}
