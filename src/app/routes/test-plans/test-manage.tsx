import { PlanDetailScreen } from '@/features/test-plans/components/plan-detail-screen';
import { PlanFormScreen } from '@/features/test-plans/components/plan-form-screen';
import { PlanListScreen } from '@/features/test-plans/components/plan-list';
import { PlanResults } from '@/features/physique-results/components/plan-results';
import { useScreenFamily } from '../screen-family';

/** organizeTest/testManage (docs/product-rules.md#test-plans). */
export function TestManagePage() {
  return <PlanListScreen family={useScreenFamily()} />;
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
