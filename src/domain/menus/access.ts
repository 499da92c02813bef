import { FAMILIES, isFamily, type Family } from './families';
import { getCatalogEntry, type ButtonAction, type CatalogEntry, type FamilyScreens } from './catalog';

/**
 * One access module for every screen and route: the family of a screen, its API base, and the permission codes and
 * paths of a catalogue page, all read from the catalogue (docs/product-rules.md#menus-and-permissions). The browser
 * uses it through `usePageAccess(key)`, the server through `pageGuard(key)`; nobody types a permission code.
 */

export { FAMILIES, isFamily, ROUTE_FAMILIES, type Family } from './families';

/** The families that run a school structure (school years, grades, classes, staff, students, meets): schools and universities. */
export type SchoolFamily = Extract<Family, 'k12' | 'gx'>;

/** A screen id of a role family's catalogue ('org.class', 'org.class.edit'): a catalogue key without its family. */
export type RoleScreenId = FamilyScreens[Family];

/**
 * The families whose catalogue has any of these screens, derived from the catalogue by the compiler:
 * `ServedBy<'org.class'>` is `'k12' | 'gx'`, `ServedBy<'homework.homeworkManagement'>` is `'admin' | 'k12'`.
 * A module or screen that serves those pages takes this type, so a family added to a page in the catalogue reaches it.
 */
export type ServedBy<Id extends string> = { [F in Family]: Id extends FamilyScreens[F] ? F : never }[Family];

/** The families whose catalogue has any of these screens, in FAMILIES order: the runtime twin of ServedBy. */
export function servedBy<const Id extends RoleScreenId>(...ids: Id[]): ServedBy<Id>[] {
  return FAMILIES.filter((f) => ids.some((id) => getCatalogEntry(`${f}.${id}`))) as ServedBy<Id>[];
}

/** The family of a type path ('/k12' → 'k12'); k12 when unknown (the family with the most screens). */
export function familyOfTypePath(typePath: string | null | undefined): Family {
  const name = (typePath ?? '').replace(/^\//, '');
  return isFamily(name) ? name : 'k12';
}

/** The family of a catalogue key ('gx.org.class' → 'gx'), or null for shared and personal screens. */
export function familyOfKey(key: string): Family | null {
  const head = key.split('.')[0];
  return isFamily(head) ? head : null;
}

/** The API base of a family's web routes: `/api/busi/web/k12`. */
export function familyApi(family: Family): string {
  return `/api/busi/web/${family}`;
}

/**
 * The API base of a catalogue page: the family base plus the page's path inside the family
 * ('k12.org.class' → '/api/busi/web/k12/org/class'), so a screen's routes sit where its menu entry does.
 */
export function pageApi(key: string): string {
  const entry = requirePage(key);
  const family = familyOfKey(key);
  if (!family) throw new Error(`Catalogue page '${key}' has no family API`);
  return familyApi(family) + entry.path.slice(`/${family}`.length);
}

/** Paths of a page and the hidden routes the catalogue gives it (add, edit/:id, detail/:id …). */
export interface PagePaths {
  list: string;
  /** The add route, when the catalogue has one. */
  add?: string;
  /** The edit route with the id filled in, when the catalogue has one. */
  edit?: (id: string) => string;
  /** The detail route with the id filled in, when the catalogue has one. */
  detail?: (id: string) => string;
  /** Any other hidden route of the page by its id ('device' → 'device/:id') with the id filled in; throws when missing. */
  route(routeId: string, id: string): string;
}

/** Everything a screen or route needs to know about a catalogue page's access. */
export interface PageAccess {
  key: string;
  entry: CatalogEntry;
  family: Family | null;
  /** The page's view permission code. */
  view: string;
  /** Permission code of each button the page has, by action (undefined when the page has no such button). */
  buttons: Partial<Record<ButtonAction, string>>;
  /** The permission of an action, or throws when the page has no such button (a typo must not open a route). */
  need(action: ButtonAction): string;
  paths: PagePaths;
}

function requirePage(key: string): CatalogEntry {
  const entry = getCatalogEntry(key);
  if (!entry || entry.kind !== 'page') throw new Error(`No catalogue page with key '${key}'`);
  return entry;
}

/** Fills the `:param` of a route path with an id. */
function withId(path: string, id: string): string {
  return path.replace(/:[A-Za-z]+/, encodeURIComponent(id));
}

const cache = new Map<string, PageAccess>();

/**
 * The access of a catalogue page by key ('k12.org.class'): view permission, button permissions by action and paths.
 * Throws for an unknown key so a renamed entry cannot silently leave a route unguarded or a button always hidden.
 */
export function pageAccess(key: string): PageAccess {
  const hit = cache.get(key);
  if (hit) return hit;
  const entry = requirePage(key);
  const buttons: Partial<Record<ButtonAction, string>> = {};
  for (const b of entry.buttons) buttons[b.action] = b.permission;
  const route = (id: string) => getCatalogEntry(`${key}.${id}`)?.path;
  // One 'addEdit' screen adds, and edits the record named by `?id=` in its query string.
  const addEdit = route('addEdit');
  const add = route('add') ?? addEdit;
  const edit = route('edit');
  const detail = route('detail');
  const access: PageAccess = {
    key,
    entry,
    family: familyOfKey(key),
    view: entry.permission,
    buttons,
    need(action) {
      const code = buttons[action];
      if (!code) throw new Error(`Catalogue page '${key}' has no '${action}' button`);
      return code;
    },
    paths: {
      list: entry.path,
      add,
      edit: edit ? (id) => withId(edit, id) : addEdit ? (id) => `${addEdit}?id=${encodeURIComponent(id)}` : undefined,
      detail: detail ? (id) => withId(detail, id) : undefined,
      route(routeId, id) {
        const path = route(routeId);
        if (!path) throw new Error(`Catalogue page '${key}' has no '${routeId}' route`);
        return withId(path, id);
      },
    },
  };
  cache.set(key, access);
  return access;
}

/** Whether a set of held permission codes allows an action of a page ('view' for the page itself). */
export function canDo(held: ReadonlySet<string>, key: string, action: ButtonAction | 'view'): boolean {
  const access = pageAccess(key);
  const code = action === 'view' ? access.view : access.buttons[action];
  return code !== undefined && held.has(code);
}
