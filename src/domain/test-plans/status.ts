import { localDate } from '../dates';
import { enumTable } from '../presentation';

/** Plan statuses of docs/product-rules.md#plan-states: derived from the dates and an early end, never stored. */
export const PLAN_STATUSES = ['notStarted', 'inProgress', 'ended'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
/** A test plan's status as the plan screens show it. */
export const PLAN_STATUS_TABLE = enumTable(PLAN_STATUSES, (s) => `testPlans:status.${s}`, { notStarted: 'plain', inProgress: 'success', ended: 'neutral' });
/** The same states of a homework or training task, in the task screens' words. */
export const TASK_STATUS_TABLE = enumTable(PLAN_STATUSES, (s) => `activities:task.status.${s}`, { notStarted: 'plain', inProgress: 'success', ended: 'neutral' });

/** Result status of a student in a plan: no result, some items missing, every item of the grade present. */
export const SIGN_UP_STATUSES = ['notTested', 'incomplete', 'complete'] as const;
export type SignUpStatus = (typeof SIGN_UP_STATUSES)[number];
export const SIGN_UP_STATUS_TABLE = enumTable(SIGN_UP_STATUSES, (s) => `testPlans:signUpStatus.${s}`, { notTested: 'plain', incomplete: 'warning', complete: 'success' });

/** What the status of a plan depends on: inclusive date range (YYYY-MM-DD) and the early-end instant. */
export interface PlanDates {
  startDate: string;
  endDate: string;
  endedAt: Date | string | null;
}

/**
 * Status of a plan at `now` (docs/product-rules.md#plan-states): ended once ended early or after its last day, in progress
 * from its first day through its last (inclusive, local date), not started before.
 */
export function planStatus(plan: PlanDates, now: Date): PlanStatus {
  if (plan.endedAt !== null) return 'ended';
  const today = localDate(now);
  if (today > plan.endDate) return 'ended';
  if (today < plan.startDate) return 'notStarted';
  return 'inProgress';
}
