import { PlanDetailScreen } from '@/features/test-plans/components/plan-detail-screen';
import { PlanFormScreen } from '@/features/test-plans/components/plan-form-screen';
import { PlanListScreen } from '@/features/test-plans/components/plan-list';
import { PlanResults } from '@/features/physique-results/components/plan-results';
import { useReleaseExtension } from '@/features/parent-reports/components/release-actions';
import { useScreenFamily } from '../screen-family';

/** organizeTest/testManage (docs/product-rules.md#test-plans). */
export function TestManagePage() {
  const family = useScreenFamily();
  // Reports parents read: the release column and actions (docs/product-rules.md#physique-year).
  return <PlanListScreen family={family} extension={useReleaseExtension(family)} />;
}

/** organizeTest/testManage/add (and ?id= to edit). */
export function TestManageAddPage() {
  return <PlanFormScreen family={useScreenFamily()} />;
}

/** organizeTest/testManage/check/:id, with the plan's results from the scores feature. */
export function TestManageCheckPage() {
  const family = useScreenFamily();
  return <PlanDetailScreen family={family} renderResults={(plan, version) => <PlanResults family={family} planId={plan.id} version={version} />} />;
}
