import type { PlanJobKind } from './answers';

// The answers' types are zod outputs (./answers, the API document's schemas).
export type { ClassCompletionRow, PlanCounts, PlanDetail, PlanFormOptions, PlanGradeItems, PlanJobKind, PlanRow, PlanSchoolOption, PlanScopeEntry, SignUpRow } from './answers';

export { SIGN_UP_STATUSES, SIGN_UP_STATUS_TABLE, type SignUpStatus } from './status';

export type PlanJobStatus = 'running' | 'done' | 'failed';

/** An import or sync of a plan (docs/product-rules.md#plan-states). */
export interface PlanJob {
  id: string;
  orgId: string;
  planId: string;
  kind: PlanJobKind;
  status: PlanJobStatus;
  fileName: string | null;
  successCount: number | null;
  failureCount: number | null;
  error: string | null;
  startedBy: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

