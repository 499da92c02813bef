import type { OrgType } from '../constants';
import type { Family } from './access';
import { CATALOG, type ButtonAction, type CatalogEntry } from './catalog';
import { roleCatalog } from '../roles/roles';
import { withAncestors, type RoleGrant } from './menu-entries';

/**
 * Default menu codes of a new organisation by type (docs/product-rules.md#accounts-in-use). Codes follow CatalogEntry.code:
 * 101001/101002/101003 are the personal centre's base, editUser and editAccount pages,
 * 101101 the K12 school dashboard (/k12/dataCenter/school) and 101201 the university's school
 * dashboard (/gx/dataCenter/school), the first page of each family, so both land on their data centre.
 */
export const DEFAULT_MENU_CODES: Record<OrgType, readonly string[]> = {
  10: [],
  21: ['101101', '101001', '101002', '101003'],
  22: ['101201', '101001', '101002', '101003'],
  30: [],
};

export type TemplateIdentity = 'administrator' | 'teacher';

/** Builds a grant from whole entries: their ancestors, their buttons that pass `allow`, and the hidden routes those buttons open. */
function grantOf(entries: readonly CatalogEntry[], allow: (e: CatalogEntry, action: ButtonAction) => boolean): RoleGrant {
  const keys = withAncestors(entries.filter((e) => e.kind !== 'route').map((e) => e.key));
  const buttons = new Set<string>();
  const views = new Set<string>();
  for (const e of CATALOG) {
    if (!keys.has(e.key) || e.kind !== 'page') continue;
    views.add(e.permission);
    for (const b of e.buttons) if (allow(e, b.action)) buttons.add(b.permission);
  }
  for (const e of entries) {
    if (e.kind !== 'route') continue;
    const parentOk = e.parent === null || keys.has(e.parent);
    if (parentOk && (buttons.has(e.permission) || views.has(e.permission) || e.parent === null)) keys.add(e.key);
  }
  return { keys: CATALOG.filter((e) => keys.has(e.key)).map((e) => e.key), buttons: [...buttons] };
}

/** The grant of a new organisation's default menus (docs/product-rules.md#accounts-in-use): those pages, their ancestors, buttons and sub-routes. */
export function grantForMenuCodes(codes: readonly string[]): RoleGrant {
  const wanted = new Set(codes);
  const pages = CATALOG.filter((e) => wanted.has(e.code));
  const keys = new Set(pages.map((e) => e.key));
  const routes = CATALOG.filter((e) => e.kind === 'route' && e.parent !== null && keys.has(e.parent));
  return grantOf([...pages, ...routes], () => true);
}

const groupOf = (e: CatalogEntry) => e.key.split('.')[1];

// A PE teacher runs teaching and testing; org structure, staff, roles, devices and banners stay with administrators.
const TEACHER_GROUPS: Record<Family, readonly string[]> = {
  admin: ['test', 'sportData', 'contest', 'homework', 'class'],
  k12: ['dataCenter', 'test', 'sportData', 'contest', 'homework', 'class', 'training', 'lesson', 'sportsMeet', 'wiki'],
  gx: ['dataCenter', 'test', 'sportData', 'contest', 'sportsMeet', 'wiki'],
};
// Groups holding the teacher's own work, the only places a teacher may delete (organisation data is not theirs to remove).
const TEACHER_DELETE_GROUPS: readonly string[] = ['homework', 'class', 'training'];
// On the shared sports-meet screens a teacher looks, enters scores and hands out certificates; setting meets up stays with administrators.
const TEACHER_SINGLE_ACTIONS: readonly ButtonAction[] = ['detail', 'entry', 'export', 'screen', 'issue', 'download'];
const TEACHER_SINGLE_TOP: readonly string[] = ['single.scoreReport', 'single.scoreReportK12'];

function administrator(family: Family): RoleGrant {
  return grantOf(roleCatalog(family), () => true);
}

function teacher(family: Family): RoleGrant {
  const entries = roleCatalog(family).filter((e) =>
    e.family === family ? TEACHER_GROUPS[family].includes(groupOf(e)) : e.family !== 'single' || e.parent !== null || e.kind === 'group' || TEACHER_SINGLE_TOP.includes(e.key),
  );
  return grantOf(entries, (e, action) => {
    if (e.family === 'single') return TEACHER_SINGLE_ACTIONS.includes(action);
    // Wall-display links show a school's figures to anyone at the screen: administrators hand them out.
    if (action === 'screen') return false;
    return action !== 'delete' || TEACHER_DELETE_GROUPS.includes(groupOf(e));
  });
}

/**
 * Role templates for the demo seed and for new roles (docs/product-rules.md#roles names the identities; which
 * permissions each holds is not shown, so these are the product's choice): an administrator holds
 * everything of the family, the shared 'single' screens and the personal centre; a PE teacher the
 * teaching screens.
 */
export const ROLE_TEMPLATES: Record<Family, Record<TemplateIdentity, RoleGrant>> = {
  admin: { administrator: administrator('admin'), teacher: teacher('admin') },
  k12: { administrator: administrator('k12'), teacher: teacher('k12') },
  gx: { administrator: administrator('gx'), teacher: teacher('gx') },
};

/** What a district PE researcher looks at: the schools' overview (first, so they land on it), test plans and scores. */
const RESEARCHER_PAGES: readonly string[] = ['admin.dataCenter.overview', 'admin.test.testManage', 'admin.test.scoreSearch'];

/**
 * A district PE researcher (体育教研员), a read-only role of a management organisation: the district's 学校概览 with
 * its read-only drill-down into a school's data, the test plans and score search, and the personal centre like every
 * account. It opens details but holds no button that adds, changes, deletes, imports or exports anything.
 */
export const DISTRICT_RESEARCHER: RoleGrant = grantOf(
  CATALOG.filter((e) => e.family === 'personal' || RESEARCHER_PAGES.some((key) => e.key === key || e.parent === key)),
  (_e, action) => action === 'detail',
);
