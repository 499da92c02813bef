/** Plan statuses of docs/product-rules.md#plan-states: derived from the dates and an early end, never stored. */
export const PLAN_STATUSES = ['notStarted', 'inProgress', 'ended'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** The organisations' local time zone: plan dates are calendar days in China (docs/api/test-plans.md#status). */
export const ORG_TIME_ZONE = 'Asia/Shanghai';

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: ORG_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day (YYYY-MM-DD) of an instant in the organisations' time zone. */
export function localDate(at: Date): string {
  return dayFormat.format(at);
}

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
