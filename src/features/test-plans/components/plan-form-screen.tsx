import { useState } from 'react';
import { Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { OK_MSG } from '@/domain/errors';
import type { PlanRequest } from '@/domain/test-plans/schemas';
import { EmptyState } from '@/components/empty-state/empty-state';
import { PageHeader } from '@/components/page-header/page-header';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/lib/toast';
import { plans, usePlanQuery } from '../api/plans';
import { usePlanOptionsQuery, usePlanSchoolsQuery } from '../api/get-plan-options';
import { planPaths } from '../family';
import type { Family } from '@/domain/menus/access';
import { emptyPlanValues, PlanForm, planToValues } from './plan-form';

/** organizeTest/testManage/add: a new plan, or with `?id=` the plan to edit (not once ended, docs/product-rules.md#plan-states). */
export function PlanFormScreen({ family }: { family: Family }) {
  const { t } = useTranslation('testPlansUi');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = search.get('id') ?? undefined;
  const paths = planPaths(family);
  const plan = usePlanQuery(family, id);
  const schools = usePlanSchoolsQuery(family);
  const [schoolOrgId, setSchoolOrgId] = useState<string | undefined>(undefined);
  const school = plan.data?.orgId ?? schoolOrgId;
  const options = usePlanOptionsQuery(family, family === 'admin' ? school : undefined);
  // The query client shows a refused save; the form has no field for the server's answer.
  const save = plans(family).useSave(id, { silent: false });

  const title = id ? t('form.editTitle') : t('form.addTitle');
  const loading = (id && plan.isPending) || (family !== 'admin' && options.isPending);

  const submit = async (values: PlanRequest) => {
    const saved = await save.mutateAsync(values).catch(() => null); // the query client has shown the server's message
    if (!saved) return;
    toast.success(t(OK_MSG.saved));
    void navigate(paths.check(saved.id), { replace: true });
  };

  let body;
  if (loading) body = <Skeleton className="h-96 w-full" />;
  else if (id && plan.data && !plan.data.editable)
    body = (
      <Card>
        <EmptyState icon={<Lock aria-hidden className="size-10 text-muted-foreground" />} title={t('hint.endedNoEdit')} />
      </Card>
    );
  else
    body = (
      <PlanForm
        // A different plan or school starts a fresh form.
        key={id ?? 'new'}
        options={options.data}
        optionsLoading={options.isFetching && !options.data}
        initial={plan.data ? planToValues(plan.data) : emptyPlanValues(options.data, schoolOrgId)}
        editing={Boolean(id)}
        schools={family === 'admin' ? (schools.data ?? []) : undefined}
        onSchoolChange={setSchoolOrgId}
        onSubmit={submit}
        onCancel={() => void navigate(-1)}
      />
    );

  return (
    <div data-testid="plan-form-screen" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader title={title} description={t('form.description')} back className="pb-0" />
      {body}
    </div>
  );
}
