import { getCatalogEntry } from '@/domain/menus/catalog';
import { pageAccess } from '@/domain/menus/access';
import type { Family } from '@/domain/menus/access';
import type { Access } from '../../lib/action';

/** The views' permissions as the action kit declares them (the same refs `dataCenterCodes` turns into codes). */
export type DataCenterAccess = { [K in keyof DataCenterCodes]: DataCenterCodes[K] extends string ? Access : Access | undefined };

export interface DataCenterCodes {
  school: string;
  grade: string;
  /** Universities: colleges side by side (GET …/college); absent for families without a college page. */
  college?: string;
  class: string;
  classDetail: string;
  student: string;
  studentDetail: string;
  /** Creating, listing and revoking wall-screen links. */
  screenLink: string;
}

const pageCode = (key: string): string | undefined => {
  const e = getCatalogEntry(key);
  return e && (e.kind === 'page' || e.kind === 'route') ? e.permission : undefined;
};
const buttonCode = (key: string, action: string): string | undefined => getCatalogEntry(key)?.buttons.find((b) => b.action === action)?.permission;

/**
 * Permission codes of the data-centre endpoints of a family, looked up in the catalogue (never typed by hand).
 * Families without data-centre screens (admin today) fall back to their score-search view: whoever may look up
 * scores may see their aggregates. Universities have a college page where schools have a grade page: it guards the
 * grade endpoint too (the college page shows one college through it). Screen links need the school dashboard's
 * `screen` button, or else the administrators' organisation-settings edit button (a public link to a school's
 * figures is a school setting).
 */
export function dataCenterCodes(family: Family): DataCenterCodes {
  const access = dataCenterAccess(family);
  const code = ([key, action]: Access) => (action === 'view' ? pageAccess(key).view : pageAccess(key).need(action));
  return {
    school: code(access.school),
    grade: code(access.grade),
    ...(access.college ? { college: code(access.college) } : {}),
    class: code(access.class),
    classDetail: code(access.classDetail),
    student: code(access.student),
    studentDetail: code(access.studentDetail),
    screenLink: code(access.screenLink),
  };
}

/** `dataCenterCodes` as catalogue refs: page views, the detail routes' opening `detail` button, the screen-link button. */
export function dataCenterAccess(family: Family): DataCenterAccess {
  const page = (id: string) => `${family}.dataCenter.${id}`;
  const fallback: Access = [`${family}.test.scoreSearch`, 'view'];
  const college: Access | undefined = pageCode(page('college')) ? [page('college'), 'view'] : undefined;
  const view = (id: string): Access => (pageCode(page(id)) ? [page(id), 'view'] : id === 'grade' && college ? college : fallback);
  // A detail route opens with its page's `detail` button (src/domain/menus/catalog.ts), whose code it carries.
  const detail = (id: string): Access => (pageCode(`${page(id)}.detail`) ? [page(id), 'detail'] : view(id));
  return {
    school: view('school'),
    grade: view('grade'),
    college,
    class: view('class'),
    classDetail: detail('class'),
    student: view('student'),
    studentDetail: detail('student'),
    screenLink: screenLinkAccess(family),
  };
}

/** The catalogue button that guards screen links (see `dataCenterCodes`), as the action kit declares it. */
export function screenLinkAccess(family: Family): Access {
  if (buttonCode(`${family}.dataCenter.school`, 'screen')) return [`${family}.dataCenter.school`, 'screen'];
  if (buttonCode(`${family}.org.currentOrg`, 'edit')) return [`${family}.org.currentOrg`, 'edit'];
  throw new Error(`No screen-link permission for family ${family}`);
}
