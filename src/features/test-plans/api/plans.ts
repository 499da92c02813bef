import type { Family } from '@/domain/menus/access';
import type { PlanRequest } from '@/domain/test-plans/schemas';
import type { PlanDetail, PlanRow } from '@/domain/test-plans/types';
import { createResource, type Resource } from '@/lib/resource';
import { planApi } from '../family';

/**
 * The test plans of a family (docs/product-rules.md#test-plans): `GET /page` (filters, `bin=1` for the recycle bin),
 * `GET /detail/:id`, `POST /add`, `POST /edit/:id`, `POST /delete/:id` (a plan with results goes to the recycle bin:
 * `binned`). End, reopen, restore and the rest are small calls beside it, invalidating `plansKey`.
 */
export type PlanResource = Resource<PlanRow, PlanRequest, PlanDetail, { binned: boolean }>;

const cache = new Map<Family, PlanResource>();
export function plans(family: Family): PlanResource {
  let r = cache.get(family);
  if (!r)
    cache.set(
      family,
      (r = createResource<PlanRow, PlanRequest, PlanDetail, { binned: boolean }>({
        base: planApi(family),
        paths: { get: '/detail', add: '/add', edit: '/edit', remove: '/delete' },
      })),
    );
  return r;
}

/** Every plan query of a family starts with it (options, sign-ups, completion too), so any write refreshes them. */
export const plansKey = (family: Family) => plans(family).key;

/** While an import or sync runs, the detail is polled so the lock clears by itself */
export const usePlanQuery = (family: Family, id: string | undefined) =>
  plans(family).useGet(id, { refetchInterval: (plan) => (plan?.runningJob ? 3000 : false) });
