import type { PlanStatus } from '@/domain/test-plans/status';
import { PLAN_STATUS_TABLE } from '@/domain/test-plans/status';
import { EnumBadge } from '@/components/enum-badge/enum-badge';

/** Not started / in progress / ended (docs/product-rules.md#plan-states), derived by the server from the dates and an early end. */
export function PlanStatusBadge({ status }: { status: PlanStatus }) {
  return <EnumBadge table={PLAN_STATUS_TABLE} value={status} data-status={status} data-testid="plan-status" />;
}
