import { useTranslation } from 'react-i18next';
import type { PlanStatus } from '@/domain/test-plans/status';
import { Badge, type BadgeProps } from '@/components/ui/badge';

const VARIANT: Record<PlanStatus, BadgeProps['variant']> = {
  notStarted: 'outline',
  inProgress: 'success',
  ended: 'secondary',
};

/** Not started / in progress / ended (docs/product-rules.md#plan-states), derived by the server from the dates and an early end. */
export function PlanStatusBadge({ status }: { status: PlanStatus }) {
  const { t } = useTranslation('testPlan');
  return (
    <Badge variant={VARIANT[status]} data-status={status} data-testid="plan-status">
      {t(`testPlan:status.${status}`)}
    </Badge>
  );
}
