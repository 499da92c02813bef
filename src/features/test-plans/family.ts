import { pageAccess, pageApi, type Family } from '@/domain/menus/access';
import { PLAN_ADMIN_ACTION } from '@/domain/test-plans/access';

/** API prefix of the test plans of a family (docs/product-rules.md#test-plans). */
export function planApi(family: Family): string {
  return pageApi(`${family}.test.testManage`);
}

/** Screen paths of the testManage page and its hidden routes, read from the catalogue. */
export function planPaths(family: Family) {
  const list = pageAccess(`${family}.test.testManage`).paths.list;
  return {
    list,
    add: `${list}/add`,
    /** Editing reuses the add screen with the plan id in the query (the catalogue has no edit route). */
    edit: (id: string) => `${list}/add?id=${encodeURIComponent(id)}`,
    check: (id: string) => `${list}/check/${encodeURIComponent(id)}`,
  };
}

/**
 * Permission codes of the testManage buttons, from the catalogue as on the server
 * (server/modules/test-plans/test-plans.routes.ts). Without an edit button in the catalogue, editing needs the add
 * permission.
 */
export function planPermissions(family: Family) {
  const page = pageAccess(`${family}.test.testManage`);
  return {
    view: page.view,
    // The check/:id route opens with the detail button.
    detail: page.need('detail'),
    add: page.need('add'),
    edit: page.buttons.edit ?? page.need('add'),
    end: page.need('end'),
    delete: page.need('delete'),
    import: page.need('import'),
    export: page.need('export'),
    /** Plan administrators: change an ended plan's dates, undo an early end, restore from the recycle bin. */
    admin: page.need(PLAN_ADMIN_ACTION),
  };
}
