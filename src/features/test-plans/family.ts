import { getCatalogEntry, type ButtonAction } from '@/domain/menus/catalog';
import { PLAN_ADMIN_ACTION } from '@/domain/test-plans/access';

/** Route families that have the test-plan screens (spec §2): the same screens, family from the route. */
export type PlanFamily = 'admin' | 'k12' | 'gx';

/** API prefix of the test plans of a family (docs/api/test-plans.md). */
export function planApi(family: PlanFamily): string {
  return `/api/busi/web/${family}/organizeTest/testManage`;
}

/** Screen paths of the testManage page and its hidden routes, read from the catalogue. */
export function planPaths(family: PlanFamily) {
  const list = getCatalogEntry(`${family}.test.testManage`)?.path ?? `/${family}/organizeTest/testManage`;
  return {
    list,
    add: `${list}/add`,
    /** Editing reuses the add screen with the plan id in the query (the catalogue has no edit route). */
    edit: (id: string) => `${list}/add?id=${encodeURIComponent(id)}`,
    check: (id: string) => `${list}/check/${encodeURIComponent(id)}`,
  };
}

/**
 * Permission codes of the testManage buttons, looked up in the catalogue (never typed by hand). Without an edit
 * button in the catalogue, editing needs the add permission, as on the server.
 */
export function planPermissions(family: PlanFamily) {
  const page = getCatalogEntry(`${family}.test.testManage`);
  const check = getCatalogEntry(`${family}.test.testManage.check`);
  const button = (action: ButtonAction) => page?.buttons.find((b) => b.action === action)?.permission ?? `${family}:test:testManage:${action}`;
  return {
    view: page?.permission ?? '',
    detail: check?.permission ?? button('detail'),
    add: button('add'),
    edit: page?.buttons.find((b) => b.action === 'edit')?.permission ?? button('add'),
    end: button('end'),
    delete: button('delete'),
    import: button('import'),
    export: button('export'),
    /** Plan administrators: change an ended plan's dates, undo an early end, restore from the recycle bin. */
    admin: button(PLAN_ADMIN_ACTION),
  };
}

/**
 * Whether the family may import and sync (docs/api/physique.md): a management organisation (admin family)
 * reads its schools' plans but never writes their scores.
 */
export function canWriteScores(family: PlanFamily): boolean {
  return family !== 'admin';
}
