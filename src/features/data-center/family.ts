import { getCatalogEntry, type ButtonAction } from '@/domain/menus/catalog';

/** Route families with data-centre endpoints (docs/api/data-center.md); k12 and gx have the screens. */
export type DataCenterFamily = 'admin' | 'k12' | 'gx';

export function isDataCenterFamily(value: unknown): value is DataCenterFamily {
  return value === 'admin' || value === 'k12' || value === 'gx';
}

/** The family of a type path ('/k12' → 'k12'); k12 when unknown, the only family with the screens. */
export function familyOfTypePath(typePath: string | null | undefined): DataCenterFamily {
  const name = (typePath ?? '').replace(/^\//, '');
  return isDataCenterFamily(name) ? name : 'k12';
}

/** API prefix of a family's data-centre views. */
export function dataCenterApi(family: DataCenterFamily): string {
  return `/api/busi/web/${family}/dataCenter`;
}

/** Screen paths of the data centre, read from the catalogue. */
export function dataCenterPaths(family: DataCenterFamily) {
  const path = (page: string) => getCatalogEntry(`${family}.dataCenter.${page}`)?.path ?? `/${family}/dataCenter/${page}`;
  const school = path('school');
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
export function dataCenterPermissions(family: DataCenterFamily) {
  const button = (key: string, action: ButtonAction) => getCatalogEntry(key)?.buttons.find((b) => b.action === action)?.permission;
  const page = (name: string) => `${family}.dataCenter.${name}`;
  return {
    classDetail: getCatalogEntry(`${page('class')}.detail`)?.permission ?? '',
    studentDetail: getCatalogEntry(`${page('student')}.detail`)?.permission ?? '',
    export: (name: 'school' | 'grade' | 'college' | 'class' | 'student') => button(page(name), 'export') ?? '',
    screenLink: button(page('school'), 'screen') ?? button(`${family}.org.currentOrg`, 'edit') ?? '',
  };
}
