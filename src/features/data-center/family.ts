import { familyApi, type Family } from '@/domain/menus/access';
import { getCatalogEntry, type ButtonAction } from '@/domain/menus/catalog';

/** API prefix of a family's data-centre views. */
export function dataCenterApi(family: Family): string {
  return `${familyApi(family)}/dataCenter`;
}

/**
 * Screen paths of the data centre, read from the catalogue. A management organisation has no data-centre pages of its
 * own: it reads a school's through the routes under its overview (admin.dataCenter.overview.*), whose school route
 * carries the school's id, `orgId` (no school path, null, until it is known).
 */
export function dataCenterPaths(family: Family, orgId?: string) {
  const entry = (page: string) => getCatalogEntry(`${family}.dataCenter.${page}`) ?? getCatalogEntry(`${family}.dataCenter.overview.${page}`);
  const path = (page: string) => entry(page)?.path ?? `/${family}/dataCenter/${page}`;
  const schoolPattern = path('school');
  const school = !schoolPattern.includes(':orgId') ? schoolPattern : orgId ? schoolPattern.replace(':orgId', encodeURIComponent(orgId)) : null;
  const grade = path('grade');
  // Universities compare colleges where schools compare grades (gx.dataCenter.college).
  const college = getCatalogEntry(`${family}.dataCenter.college`)?.path ?? null;
  const klass = path('class');
  const student = path('student');
  return {
    school,
    grade,
    college,
    class: klass,
    classDetail: (id: string) => `${klass}/detail/${encodeURIComponent(id)}`,
    student,
    studentDetail: (id: string) => `${student}/detail/${encodeURIComponent(id)}`,
  };
}
export type DataCenterPaths = ReturnType<typeof dataCenterPaths>;

/**
 * Permission codes of the data-centre buttons, looked up in the catalogue as the server does
 * (server/modules/data-center/data-center.permissions.ts): screen links need the school dashboard's
 * `screen` button, or else the organisation settings' edit button (administrators).
 */
export function dataCenterPermissions(family: Family) {
  const button = (key: string, action: ButtonAction) => getCatalogEntry(key)?.buttons.find((b) => b.action === action)?.permission;
  const page = (name: string) => `${family}.dataCenter.${name}`;
  return {
    classDetail: getCatalogEntry(`${page('class')}.detail`)?.permission ?? '',
    studentDetail: getCatalogEntry(`${page('student')}.detail`)?.permission ?? '',
    export: (name: 'school' | 'grade' | 'college' | 'class' | 'student') => button(page(name), 'export') ?? '',
    screenLink: button(page('school'), 'screen') ?? button(`${family}.org.currentOrg`, 'edit') ?? '',
  };
}
