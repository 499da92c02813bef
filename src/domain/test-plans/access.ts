import type { ButtonAction } from '../menus/catalog';
import { planStatus, type PlanDates } from './status';
import { localDate } from '../dates';

/**
 * Who may do what with a test plan beyond the everyday actions (docs/product-rules.md#test-plans):
 * - add, edit (while not ended), end early: the testManage add/edit/end buttons (teachers hold them);
 * - correct an ended plan's dates, undo an early end, restore a deleted plan from the recycle bin:
 *   the plan's administrators, i.e. whoever holds the testManage **delete** button. The administrator
 *   role template holds it and the teacher template does not (src/domain/menus/role-templates.ts), so
 *   what a teacher does can be undone by an administrator, and whoever may delete may also undo.
 */
export const PLAN_ADMIN_ACTION: ButtonAction = 'delete';

/** Days a deleted plan with results stays in the recycle bin, restorable, before it is purged for good. */
export const PLAN_BIN_DAYS = 30;
const DAY_MS = 86_400_000;

/** Kinds of plan history entries (test_plan_events). */
export const PLAN_EVENT_KINDS = ['reopened', 'datesCorrected', 'binned', 'restored', 'purged'] as const;
export type PlanEventKind = (typeof PLAN_EVENT_KINDS)[number];

/** When a plan put in the bin at `deletedAt` is purged. */
export function binPurgeAt(deletedAt: Date | string): Date {
  return new Date(new Date(deletedAt).getTime() + PLAN_BIN_DAYS * DAY_MS);
}

/** Whether a plan in the bin since `deletedAt` may still be restored at `now`. */
export function restorable(deletedAt: Date | string, now: Date): boolean {
  return binPurgeAt(deletedAt).getTime() > now.getTime();
}

/** An early end can be undone while the plan's dates allow: it was ended early and its last day is today or later. */
export function canUndoEnd(plan: PlanDates, now: Date): boolean {
  return plan.endedAt !== null && localDate(now) <= plan.endDate;
}

/** An administrator may correct the dates of any ended plan (a plan saved with past dates, or ended too soon). */
export function canCorrectDates(plan: PlanDates, now: Date): boolean {
  return planStatus(plan, now) === 'ended';
}

/** What the plan form warns about its dates at `today` (YYYY-MM-DD, organisations' local date). */
export type PlanDatesWarning = 'endPassed' | null;

/**
 * The form's warning: a plan whose last day is already past is saved ended — no import, sync or
 * edit — so the person is told before saving (only an administrator can then correct the dates).
 */
export function planDatesWarning(dates: { startDate?: string; endDate?: string }, today: string): PlanDatesWarning {
  if (dates.endDate && /^\d{4}-\d{2}-\d{2}$/.test(dates.endDate) && dates.endDate < today) return 'endPassed';
  return null;
}
