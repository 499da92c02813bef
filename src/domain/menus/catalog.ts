import { ORG_TYPE, type OrgType, type RouteFamily } from '../constants';

/**
 * The product's screen catalogue (docs/product-rules.md#menus-and-permissions): every menu group, page, hidden sub-route and button
 * of each route family. The server seeds the menus table from it; the browser builds its routes
 * from it (a page no feature implements yet shows an honest "not available yet" screen).
 */

/**
 * A catalogue family: the route families (docs/product-rules.md#families) plus the personal centre (/myInfo), which is
 * always registered and always allowed by the route guard, so it lives apart from 'single'.
 * 'single' holds the shared sports-meet screens and the always-available standalone screens
 * (/menuManagement, /scoreReport, /scoreReportK12).
 */
export type CatalogFamily = RouteFamily | 'personal';
export const CATALOG_FAMILIES: readonly CatalogFamily[] = ['admin', 'k12', 'gx', 'single', 'personal'];

/** zh_cn label of every button action; the i18n key is `button.<action>` in namespace `menus`. */
export const BUTTON_ACTIONS = {
  add: '新增',
  edit: '编辑',
  delete: '删除',
  detail: '详情',
  import: '导入',
  export: '导出',
  status: '启用/停用',
  resetPassword: '重置密码',
  members: '成员管理',
  device: '关联设备',
  end: '提前结束',
  invalid: '设为无效',
  valid: '恢复有效',
  sync: '同步数据',
  report: '数据上报',
  data: '数据统计',
  addRank: '新增排名赛',
  addChallenge: '新增闯关赛',
  arrange: '编排',
  calendar: '赛程',
  demeanor: '运动风采',
  upload: '上传',
  entry: '成绩录入',
  audit: '审核',
  issue: '发放证书',
  download: '下载',
  screen: '大屏展示',
  sort: '排序',
  /** Unmasked mobiles and ID/certificate numbers in people lists (docs/product-rules.md#data-scopes). */
  sensitive: '查看敏感信息',
  rollover: '学年升级',
  /** Checks the operation log's hash chains for altered or missing rows (docs/decisions/050-audit-hash-chain.md). */
  verify: '校验日志',
  /** Ends another person's sign-in session (the online sessions screen). */
  signOut: '强制下线',
  /** A meet's results book and points tables as PDF, beside its order of events and heat sheets. */
  resultsBook: '成绩册',
  pointsTable: '积分表',
  /** Printable sheets of the physique year (test cards, rosters, application forms, registration cards). */
  print: '打印',
  /** A page's own settings (warning thresholds). */
  setting: '设置',
  /** Following a physique warning up as a case. */
  followUp: '跟进',
  /** Releases a plan's reports to the students' and parents' app. */
  release: '发布报告',
  /** Acknowledging a lesson's safety alert on the live monitor. */
  acknowledge: '确认警报',
} as const;
export type ButtonAction = keyof typeof BUTTON_ACTIONS;

export interface CatalogButton {
  /** The action, e.g. 'add'; the button's menuId is `${entry.key}#${action}`. */
  action: ButtonAction;
  /** Permission code, e.g. 'k12:org:class:add'. */
  permission: string;
  /** i18n key in namespace `menus`, e.g. 'button.add'. */
  i18nKey: string;
  /** zh_cn name. */
  name: string;
}

export interface CatalogEntry {
  /** Stable id, also the menuId: e.g. 'k12.org.class'. */
  key: string;
  family: CatalogFamily;
  /** Parent entry key; null for a top entry. */
  parent: string | null;
  /** 'group' has children only; 'page' shows in the menu; 'route' is a hidden sub-route (add, edit/:id …). */
  kind: 'group' | 'page' | 'route';
  /** Full path with the family prefix and react-router params, e.g. '/k12/org/class/edit/:id'. Empty for groups. */
  path: string;
  /** i18n key in namespace `menus`. */
  i18nKey: string;
  /** zh_cn name, stored as menuName. */
  name: string;
  /** View permission code of a page or route, e.g. 'k12:org:class:view'; groups use their key. */
  permission: string;
  buttons: CatalogButton[];
  sortNum: number;
  /** lucide icon name for top entries. */
  icon?: string;
  /**
   * Numeric menu code (default menu codes: docs/product-rules.md#accounts-in-use). Scheme: `101` + family digit
   * (personal 0, k12 1, gx 2, admin 3, single 4) + two-digit page number gives a page's 6-digit code
   * (101001 = personal centre base, 101101 = k12 data-centre school dashboard, 101201 = gx data-centre
   * school dashboard); a hidden route appends two digits to its page's code; a group is
   * `101` + family digit + `00` + two-digit group number (8 digits, never clashing with routes because
   * page numbers start at 01).
   */
  code: string;
}

// ---------------------------------------------------------------------------------------------
// Definition DSL: groups hold pages, pages hold buttons and hidden routes. Paths are relative to
// the family prefix (pages) or to the page (routes); a route path starting with '/' is absolute.
// ---------------------------------------------------------------------------------------------

/** [id, path, zh_cn name, action of the button that opens it ('view' = the page's view permission)]. */
type RouteDef = readonly [id: string, path: string, name: string, opener: ButtonAction | 'view'];

// The ids are type parameters so the catalogue's screen ids are known to the compiler (ScreenId, FamilyScreens).
interface PageDef<Id extends string = string, R extends readonly RouteDef[] = readonly RouteDef[]> {
  id: Id;
  no: number;
  path: string;
  name: string;
  buttons: readonly ButtonAction[];
  routes: R;
}

interface GroupDef<Id extends string = string, P extends PageDef = PageDef> {
  id: Id;
  no: number;
  name: string;
  icon: string;
  pages: readonly P[];
}

/** A hidden route without a parent page (the always-available standalone screens). */
interface TopRouteDef<Id extends string = string> {
  id: Id;
  no: number;
  path: string;
  name: string;
  /** Permission group segment. */
  area: string;
}

interface FamilyDef {
  family: CatalogFamily;
  digit: number;
  prefix: string;
  /** Added to group sortNums so shared families follow the role family in the menu. */
  sortBase: number;
  groups: readonly GroupDef[];
  topRoutes?: readonly TopRouteDef[];
}

const page = <const Id extends string, const R extends readonly RouteDef[] = readonly []>(
  id: Id,
  no: number,
  path: string,
  name: string,
  buttons: readonly ButtonAction[] = [],
  routes: R = [] as readonly RouteDef[] as R,
): PageDef<Id, R> => ({ id, no, path, name, buttons, routes });

const group = <const Id extends string, P extends PageDef>(id: Id, no: number, name: string, icon: string, pages: readonly P[]): GroupDef<Id, P> => ({
  id,
  no,
  name,
  icon,
  pages,
});

// Screens several families share, with the same buttons and sub-routes.
const rolePage = (no: number) =>
  page('role', no, 'role', '角色管理', ['add', 'edit', 'delete', 'members'], [
    ['add', 'add', '新增角色', 'add'],
    ['edit', 'edit/:recordUid', '编辑角色', 'edit'],
    ['members', 'members/:id', '角色成员', 'members'],
  ]);
const currentOrgPage = (no: number, name: string, editName: string) =>
  page('currentOrg', no, 'currentOrg', name, ['edit'], [['edit', 'edit/:orgId', editName, 'edit']]);
const testManagePage = (no: number) =>
  page('testManage', no, 'organizeTest/testManage', '测试管理', ['add', 'edit', 'detail', 'end', 'delete', 'import', 'export', 'release'], [
    ['add', 'add', '新增测试计划', 'add'],
    ['check', 'check/:id', '查看测试计划', 'detail'],
  ]);
/** The physique year's pages (docs/product-rules.md#physique-year), numbered from `no` on, for K12 schools and universities. */
const physiqueYearPages = (no: number) =>
  [
    page('testDay', no, 'physiqueManage/testDay', '测试日', ['add', 'edit', 'delete', 'entry', 'audit', 'print'], [['station', 'station/:stationId', '测试站', 'entry']]),
    page('exemption', no + 1, 'physiqueManage/exemption', '免测/缓测', ['add', 'audit', 'delete', 'print', 'export']),
    page('retest', no + 2, 'physiqueManage/retest', '补测', ['add', 'export']),
    page('graduation', no + 3, 'physiqueManage/graduation', '毕业成绩', ['detail', 'print', 'export'], [['history', 'history/:studentId', '体质档案', 'detail']]),
    page('warning', no + 4, 'physiqueManage/warning', '体质预警', ['setting', 'followUp', 'export']),
  ] as const;
/** Lesson load (docs/product-rules.md#lesson-load): the live monitor of a lesson and the load reports, for K12 schools and universities. */
const lessonLoadPages = (no: number) =>
  [
    page('monitor', no, 'class/monitor', '课堂监控', ['edit', 'acknowledge'], [['live', 'live/:lessonId', '实时监控', 'view']]),
    page('load', no + 1, 'class/load', '课堂负荷', ['detail', 'print', 'export'], [
      ['lesson', 'lesson/:lessonId', '课堂负荷报告', 'detail'],
      ['summary', 'summary', '负荷汇总', 'view'],
    ]),
  ] as const;
const scoreSearchPage = (no: number) =>
  page('scoreSearch', no, 'organizeTest/scoreSearch', '成绩查询', ['export', 'invalid', 'valid']);
const testRecordPage = (no: number) =>
  page('testRecord', no, 'selfTest/testRecord', '自主测试记录', ['export', 'invalid', 'valid']);
const exerciseRecordPage = (no: number) =>
  page('exerciseRecord', no, 'exerciseRecord', '运动记录', ['export', 'invalid', 'valid']);
const rankPage = (no: number) =>
  page('competitionRank', no, 'onlineManagement/competitionRank', '排名赛', ['add', 'edit', 'detail', 'data', 'end', 'delete', 'invalid', 'valid', 'export'], [
    ['addRank', 'addRank', '新增排名赛', 'add'],
    ['editRank', 'editRank/:id', '编辑排名赛', 'edit'],
    ['detailRank', 'detailRank/:id', '排名赛详情', 'detail'],
    ['dataRank', 'dataRank/:id', '排名赛数据', 'data'],
  ]);
const acayearPage = (no: number, rollover = false) =>
  page('acayear', no, 'org/acayear', '学年学期', ['add', 'edit', 'delete', ...(rollover ? (['rollover'] as const) : [])], [
    ['add', 'add', '新增学年', 'add'],
    ['edit', 'edit/:id', '编辑学年', 'edit'],
    ...(rollover ? [['rollover', 'rollover', '学年升级', 'rollover'] as const] : []),
  ]);
const teacherPage = (no: number) =>
  page('teacher', no, 'user/teacher', '教职工管理', ['add', 'edit', 'delete', 'status', 'resetPassword', 'import', 'export', 'sensitive'], [
    ['add', 'add', '新增教职工', 'add'],
    ['edit', 'edit/:id', '编辑教职工', 'edit'],
  ]);
const studentPage = (no: number) =>
  page('student', no, 'user/student', '学生管理', ['add', 'edit', 'delete', 'import', 'export', 'sensitive'], [
    ['add', 'add', '新增学生', 'add'],
    ['edit', 'edit/:id', '编辑学生', 'edit'],
  ]);
const devicePage = (no: number) =>
  page('device', no, 'device', '设备管理', ['add', 'edit', 'delete', 'export'], [
    ['add', 'add', '新增设备', 'add'],
    ['edit', 'edit/:id', '编辑设备', 'edit'],
  ]);
const placePage = (no: number) =>
  page('place', no, 'place', '场地管理', ['add', 'edit', 'delete', 'device'], [
    ['add', 'add', '新增场地', 'add'],
    ['edit', 'edit/:id', '编辑场地', 'edit'],
    ['device', 'device/:id', '关联设备', 'device'],
  ]);
const sportsMeetPage = (no: number) =>
  page('manage', no, 'sportsMeet', '运动会管理', ['add', 'edit', 'detail', 'arrange', 'calendar', 'demeanor', 'end', 'delete', 'resultsBook', 'pointsTable'], [
    ['add', 'add', '新增运动会', 'add'],
    ['detail', 'detail/:meetId', '运动会详情', 'detail'],
    ['arrange', 'detail/arrange/:meetId', '编排管理', 'arrange'],
    ['calendar', 'detail/calendar/:meetId', '赛程日历', 'calendar'],
    ['demeanor', 'demeanor/:meetId', '运动风采', 'demeanor'],
  ]);
const wikiPage = (no: number) =>
  page('schoolWiki', no, 'wikiManagement/schoolWiki', '校园百科', ['add', 'edit', 'delete'], [
    ['add', 'add', '新增词条', 'add'],
    ['edit', 'edit/:id', '编辑词条', 'edit'],
  ]);
const bannerGroup = (no: number, pageNo: number) =>
  group('banner', no, '轮播图管理', 'image', [
    page('bannerConfig', pageNo, 'banner/bannerConfig', '轮播图配置', ['add', 'edit', 'detail', 'status', 'sort', 'delete'], [
      ['add', 'add', '新增轮播图', 'add'],
      ['edit', 'edit/:uid', '编辑轮播图', 'edit'],
      ['detail', 'detail/:uid', '轮播图详情', 'detail'],
    ]),
  ]);

// Sign-in log, operation log (the audit rows), online sessions of the organisation and those below it: administrators only.
// Then the daily console's notices and dictionaries and the data-protection screens (docs/product-rules.md#data-protection);
// `schoolPages` are those only a school holds (guardian consent, parents' data requests).
const systemGroup = <const P extends PageDef = never>(no: number, firstPage: number, nextPage: number, accessLogPage: number, schoolPages: readonly P[] = []) =>
  group('system', no, '系统管理', 'shield-check', [
    page('signInLog', firstPage, 'system/signInLog', '登录日志', ['export']),
    page('operationLog', firstPage + 1, 'system/operationLog', '操作日志', ['detail', 'export', 'verify']),
    page('onlineSession', firstPage + 2, 'system/onlineSession', '在线用户', ['signOut']),
    page('notice', nextPage, 'system/notice', '通知公告', ['add', 'edit', 'delete', 'detail'], [
      ['add', 'add', '新增公告', 'add'],
      ['edit', 'edit/:id', '编辑公告', 'edit'],
      ['detail', 'detail/:id', '公告详情', 'detail'],
    ]),
    page('dictionary', nextPage + 1, 'system/dictionary', '字典管理', ['add', 'edit', 'delete']),
    page('security', nextPage + 2, 'system/security', '安全设置', ['edit']),
    page('sensitiveLog', nextPage + 3, 'system/sensitiveLog', '敏感信息查看记录', ['export']),
    page('accessLog', accessLogPage, 'system/accessLog', '访问日志', ['export']),
    page('exportApproval', nextPage + 4, 'system/exportApproval', '导出审批', ['audit']),
    page('retention', nextPage + 5, 'system/retention', '数据保留', ['edit']),
    ...schoolPages,
  ]);
/** A school's guardian consent register and its parents' data requests, numbered from `no` on. */
const schoolPrivacyPages = (no: number) =>
  [
    page('consent', no, 'system/consent', '监护人同意', ['add', 'edit', 'upload', 'export']),
    page('dataRequest', no + 1, 'system/dataRequest', '个人信息请求', ['audit', 'download']),
  ] as const;

const ADMIN = {
  family: 'admin',
  digit: 3,
  prefix: '/admin',
  sortBase: 0,
  groups: [
    // First, so a management organisation's landing page is its schools side by side; a school's row opens its data
    // centre read-only (the data centre's school view of that school).
    group('dataCenter', 0, '数据中心', 'bar-chart-3', [
      // A school's data centre drills down into its grades, classes and students, read-only, under the overview.
      page('overview', 19, 'dataCenter/overview', '学校概览', [], [
        ['school', 'school/:orgId', '学校数据', 'view'],
        ['grade', 'grade', '年级数据', 'view'],
        ['class', 'class', '班级数据', 'view'],
        ['classDetail', 'class/detail/:id', '班级详情', 'view'],
        ['student', 'student', '学生数据', 'view'],
        ['studentDetail', 'student/detail/:id', '学生详情', 'view'],
      ]),
    ]),
    group('org', 1, '组织管理', 'building-2', [
      currentOrgPage(1, '本单位信息', '编辑本单位信息'),
      page('orgInfo', 2, 'orgManage/orgInfo', '组织机构', ['add', 'edit', 'detail', 'status', 'delete', 'export'], [
        ['add', 'add', '新增组织', 'add'],
        ['edit', 'edit/:orgId', '编辑组织', 'edit'],
        ['detail', 'detail/:orgId', '组织详情', 'detail'],
      ]),
      page('department', 3, 'departmentManage', '部门管理', ['add', 'edit', 'delete', 'members'], [
        ['member', 'member/:id', '部门成员', 'members'],
        ['add', 'add', '新增部门', 'add'],
        ['edit', 'edit/:id', '编辑部门', 'edit'],
      ]),
    ]),
    group('user', 2, '用户管理', 'users', [
      page('user', 4, 'user', '用户列表', ['add', 'edit', 'delete', 'status', 'resetPassword', 'import', 'export', 'sensitive'], [
        ['add', 'add', '新增用户', 'add'],
        ['edit', 'edit/:id', '编辑用户', 'edit'],
      ]),
      rolePage(5),
    ]),
    group('test', 3, '体质测试', 'clipboard-list', [
      testManagePage(6),
      scoreSearchPage(7),
      // 中考体育 conversion tables a district publishes for its schools' plans (docs/product-rules.md#physique-year).
      page('conversion', 20, 'physiqueManage/conversion', '中考体育换算', ['add', 'edit', 'delete', 'import']),
    ]),
    group('sportData', 4, '运动数据', 'activity', [testRecordPage(8), exerciseRecordPage(9)]),
    group('contest', 5, '线上赛事', 'trophy', [rankPage(10)]),
    group('homework', 6, '体育作业', 'clipboard-check', [
      page('homeworkManagement', 11, 'sportsHomework/homeworkManagement', '作业管理', ['detail', 'export'], [
        ['detail', 'detail/:id', '作业详情', 'detail'],
      ]),
    ]),
    group('class', 7, '课堂教学', 'school', [
      page('practise', 12, 'class/practise', '课堂练习', ['detail', 'export']),
      page('test', 13, 'class/test', '课堂测试', ['detail', 'export']),
      // A district compares its schools' lesson load (docs/product-rules.md#lesson-load).
      page('load', 21, 'class/load', '课堂负荷', ['detail', 'export']),
    ]),
    bannerGroup(8, 14),
    // The resource library a management organisation publishes to its schools (docs/product-rules.md#lesson-resources).
    group('lesson', 9, '课程资源', 'book-open', [
      page('resourceLibrary', 15, 'lessonAssistant/resourceList', '资源列表', ['add', 'edit', 'delete'], [
        ['add', 'add', '新增资源', 'add'],
        ['edit', 'edit/:id', '编辑资源', 'edit'],
      ]),
    ]),
    systemGroup(10, 16, 22, 28),
  ],
} satisfies FamilyDef;

const K12 = {
  family: 'k12',
  digit: 1,
  prefix: '/k12',
  sortBase: 0,
  groups: [
    // First, so a K12 role's landing page is the school dashboard (default menu code 101101).
    group('dataCenter', 1, '数据中心', 'bar-chart-3', [
      page('school', 1, 'dataCenter/school', '学校数据', ['export', 'screen']),
      page('grade', 2, 'dataCenter/grade', '年级数据', ['export']),
      page('class', 3, 'dataCenter/class', '班级数据', ['detail', 'export'], [['detail', 'detail/:id', '班级详情', 'detail']]),
      page('student', 4, 'dataCenter/student', '学生数据', ['detail', 'export'], [
        ['detail', 'detail/:id', '学生详情', 'detail'],
      ]),
    ]),
    group('org', 2, '组织管理', 'building-2', [
      currentOrgPage(5, '本单位信息', '编辑本单位信息'),
      acayearPage(6, true),
      page('grade', 7, 'org/grade', '年级管理', ['add', 'edit', 'delete'], [
        ['add', 'add', '新增年级', 'add'],
        ['edit', 'edit/:id', '编辑年级', 'edit'],
      ]),
      page('class', 8, 'org/class', '班级管理', ['add', 'edit', 'delete', 'import', 'export'], [
        ['add', 'add', '新增班级', 'add'],
        ['edit', 'edit/:classId', '编辑班级', 'edit'],
      ]),
    ]),
    group('user', 3, '用户管理', 'users', [
      teacherPage(9),
      studentPage(10),
      page('parent', 11, 'user/parent', '家长管理', ['edit', 'delete', 'export', 'sensitive'], [['edit', 'edit/:id', '编辑家长', 'edit']]),
      rolePage(12),
    ]),
    group('venue', 4, '设备场地', 'monitor', [devicePage(13), placePage(14)]),
    group('test', 5, '体质测试', 'clipboard-list', [
      testManagePage(15),
      scoreSearchPage(16),
      page('testResult', 17, 'physiqueManage/testResult', '体质管理', ['import', 'sync', 'report', 'export', 'delete'], [
        ['editUpReport', 'editUpReport', '编辑上报数据', 'report'],
      ]),
      ...physiqueYearPages(33),
    ]),
    group('sportData', 6, '运动数据', 'activity', [testRecordPage(18), exerciseRecordPage(19)]),
    group('contest', 7, '线上赛事', 'trophy', [rankPage(20)]),
    group('homework', 8, '体育作业', 'clipboard-check', [
      page('homeworkManagement', 21, 'sportsHomework/homeworkManagement', '作业管理', ['add', 'edit', 'detail', 'end', 'delete', 'export'], [
        ['add', 'add', '布置作业', 'add'],
        ['detail', 'detail/:id', '作业详情', 'detail'],
        ['edit', 'edit/:id', '编辑作业', 'edit'],
      ]),
    ]),
    group('class', 9, '课堂教学', 'school', [
      page('practise', 22, 'class/practise', '课堂练习', ['detail', 'export', 'delete']),
      page('test', 23, 'class/test', '课堂测试', ['detail', 'export', 'delete']),
      page('match', 24, 'class/match', '课堂比赛', ['detail', 'export', 'delete']),
      ...lessonLoadPages(38),
    ]),
    group('training', 10, '专项训练', 'dumbbell', [
      page('specialTraining', 25, 'specialTraining/specialTrainingList', '训练计划', ['add', 'detail', 'data', 'end', 'delete'], [
        ['add', 'add', '新增训练计划', 'add'],
        ['detail', 'detail/:id', '训练计划详情', 'detail'],
        ['detailDataList', 'detailDataList/:id', '训练数据', 'data'],
      ]),
    ]),
    group('lesson', 11, '课程资源', 'book-open', [
      page('lessonResource', 26, 'lessonAssistant/lessonResourceList', '校本资源', ['add', 'edit', 'delete'], [
        ['add', 'add', '新增资源', 'add'],
        ['edit', 'edit/:id', '编辑资源', 'edit'],
      ]),
    ]),
    group('sportsMeet', 12, '运动会', 'flag', [sportsMeetPage(27)]),
    group('wiki', 13, '百科管理', 'book-marked', [wikiPage(28)]),
    bannerGroup(14, 29),
    systemGroup(15, 30, 40, 48, schoolPrivacyPages(46)),
  ],
} satisfies FamilyDef;

const GX = {
  family: 'gx',
  digit: 2,
  prefix: '/gx',
  sortBase: 0,
  groups: [
    // First, so a university role's landing page is the school dashboard (default menu code 101201), as in K12.
    // Universities compare colleges where schools compare grades, and drill school → college → class → student.
    group('dataCenter', 1, '数据中心', 'bar-chart-3', [
      page('school', 1, 'dataCenter/school', '学校数据', ['export', 'screen']),
      page('college', 2, 'dataCenter/college', '学院数据', ['export']),
      page('class', 3, 'dataCenter/class', '班级数据', ['detail', 'export'], [['detail', 'detail/:id', '班级详情', 'detail']]),
      page('student', 4, 'dataCenter/student', '学生数据', ['detail', 'export'], [
        ['detail', 'detail/:id', '学生详情', 'detail'],
      ]),
    ]),
    group('org', 2, '组织管理', 'building-2', [
      currentOrgPage(5, '本单位信息', '编辑本单位信息'),
      acayearPage(6, true),
      page('grade', 7, 'org/grade', '入学年份', ['add', 'edit', 'delete'], [
        ['add', 'add', '新增入学年份', 'add'],
        ['edit', 'edit/:id', '编辑入学年份', 'edit'],
      ]),
      // One screen adds and edits (the record id travels in the query string).
      page('college', 8, 'org/college', '院系管理', ['add', 'edit', 'delete'], [['addEdit', 'addEdit', '新增/编辑院系', 'add']]),
      page('major', 9, 'org/major', '专业管理', ['add', 'edit', 'delete'], [['addEdit', 'addEdit', '新增/编辑专业', 'add']]),
      page('class', 10, 'org/class', '班级管理', ['add', 'edit', 'delete', 'import', 'export'], [
        ['add', 'add', '新增班级', 'add'],
        ['edit', 'edit/:classId', '编辑班级', 'edit'],
      ]),
    ]),
    group('user', 3, '用户管理', 'users', [teacherPage(11), studentPage(12), rolePage(13)]),
    group('venue', 4, '设备场地', 'monitor', [devicePage(14), placePage(15)]),
    group('test', 5, '体质测试', 'clipboard-list', [testManagePage(16), scoreSearchPage(17), ...physiqueYearPages(27)]),
    group('sportData', 6, '运动数据', 'activity', [testRecordPage(18), exerciseRecordPage(19)]),
    group('contest', 7, '线上赛事', 'trophy', [
      page('competition', 20, 'onlineManagement/competition', '赛事管理', ['addRank', 'addChallenge', 'edit', 'detail', 'data', 'end', 'delete', 'invalid', 'valid', 'export'], [
        ['addRank', 'addRank', '新增排名赛', 'addRank'],
        ['editRank', 'editRank/:id', '编辑排名赛', 'edit'],
        ['detailRank', 'detailRank/:id', '排名赛详情', 'detail'],
        ['dataRank', 'dataRank/:id', '排名赛数据', 'data'],
        ['addChallenge', 'addChallenge', '新增闯关赛', 'addChallenge'],
        ['editChallenge', 'editChallenge/:id', '编辑闯关赛', 'edit'],
        ['detailChallenge', 'detailChallenge/:id', '闯关赛详情', 'detail'],
        ['dataChallenge', 'dataChallenge/:id', '闯关赛数据', 'data'],
      ]),
    ]),
    group('sportsMeet', 8, '运动会', 'flag', [sportsMeetPage(21)]),
    group('wiki', 9, '百科管理', 'book-marked', [wikiPage(22)]),
    bannerGroup(10, 23),
    systemGroup(11, 24, 34, 42, schoolPrivacyPages(40)),
    group('class', 12, '课堂教学', 'school', [...lessonLoadPages(32)]),
  ],
} satisfies FamilyDef;

const SINGLE = {
  family: 'single',
  digit: 4,
  prefix: '/single',
  sortBase: 900,
  groups: [
    // Meet-wide work shared by every family: sign-ups, scores, points, records, certificates, e-stamps.
    group('sportsMeet', 1, '赛事服务', 'medal', [
      page('signUp', 1, 'sportsMeet/signUp', '报名管理', ['detail', 'audit', 'import', 'export'], [
        ['detail', ':meetId', '报名详情', 'detail'],
      ]),
      page('score', 2, 'sportsMeet/score', '成绩管理', ['entry', 'audit', 'import', 'export', 'invalid', 'valid', 'screen'], [
        ['entry', ':meetId', '成绩录入', 'entry'],
        ['screen', 'screen/:meetId', '成绩大屏', 'screen'],
      ]),
      page('points', 3, 'sportsMeet/points', '积分统计', ['detail', 'export'], [['detail', ':meetId', '积分详情', 'detail']]),
      page('record', 4, 'sportsMeet/record', '纪录管理', ['add', 'edit', 'delete', 'import', 'export'], [
        ['add', 'add', '新增纪录', 'add'],
        ['edit', 'edit/:id', '编辑纪录', 'edit'],
      ]),
      page('certificate', 5, 'sportsMeet/certificate', '证书管理', ['add', 'edit', 'delete', 'issue', 'download'], [
        ['add', 'add', '新增证书模板', 'add'],
        ['edit', 'edit/:id', '编辑证书模板', 'edit'],
      ]),
      page('eStamp', 6, 'sportsMeet/eStamp', '电子印章', ['upload', 'delete']),
    ]),
  ],
  // Always-available standalone screens of docs/product-rules.md#screens-and-routes, outside any menu group.
  topRoutes: [
    { id: 'menuManagement', no: 7, path: '/menuManagement', name: '菜单管理', area: 'system' },
    { id: 'scoreReport', no: 8, path: '/scoreReport', name: '体测成绩报告', area: 'report' },
    { id: 'scoreReportK12', no: 9, path: '/scoreReportK12', name: '中小学体测成绩报告', area: 'report' },
  ] as const,
} satisfies FamilyDef;

const PERSONAL = {
  family: 'personal',
  digit: 0,
  prefix: '/myInfo',
  sortBase: 1000,
  groups: [
    group('myInfo', 1, '个人中心', 'user-round', [
      page('base', 1, 'base', '基本信息'),
      page('editUser', 2, 'editUser', '编辑资料'),
      page('editAccount', 3, 'editAccount', '修改密码'),
      // Notices received, finished jobs' results and the to-dos (the bell in the header opens it).
      page('messages', 4, 'messages', '消息中心'),
      // Two-factor sign-in (TOTP), recovery codes and the account's recent sign-ins.
      page('security', 5, 'security', '账号安全'),
      // The caller's own export requests (docs/product-rules.md#personal-data-access): follow one, download an approved one.
      page('exports', 6, 'exports', '我的导出'),
    ]),
  ],
} satisfies FamilyDef;

const two = (n: number) => String(n).padStart(2, '0');
const i18nKeyOf = (key: string) => {
  const [family, ...rest] = key.split('.');
  // Segments joined by '_' so a group's key and its pages' keys never nest into each other in JSON.
  return `${family}.${rest.join('_')}`;
};
const joinPath = (base: string, rel: string) => (rel.startsWith('/') ? rel : `${base}/${rel}`);

function buildFamily(def: FamilyDef): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  const { family, digit, prefix } = def;
  for (const g of def.groups) {
    const groupKey = `${family}.${g.id}`;
    out.push({
      key: groupKey,
      family,
      parent: null,
      kind: 'group',
      path: '',
      i18nKey: i18nKeyOf(groupKey),
      name: g.name,
      permission: groupKey,
      buttons: [],
      sortNum: def.sortBase + g.no * 10,
      icon: g.icon,
      code: `101${digit}00${two(g.no)}`,
    });
    g.pages.forEach((p, pi) => {
      const pageKey = `${groupKey}.${p.id}`;
      const codeBase = `${family}:${g.id}:${p.id}`;
      const pagePath = joinPath(prefix, p.path);
      const pageCode = `101${digit}${two(p.no)}`;
      const buttons: CatalogButton[] = p.buttons.map((action) => ({
        action,
        permission: `${codeBase}:${action}`,
        i18nKey: `button.${action}`,
        name: BUTTON_ACTIONS[action],
      }));
      out.push({
        key: pageKey,
        family,
        parent: groupKey,
        kind: 'page',
        path: pagePath,
        i18nKey: i18nKeyOf(pageKey),
        name: p.name,
        permission: `${codeBase}:view`,
        buttons,
        sortNum: (pi + 1) * 10,
        code: pageCode,
      });
      p.routes.forEach(([id, rel, name, opener], ri) => {
        const routeKey = `${pageKey}.${id}`;
        out.push({
          key: routeKey,
          family,
          parent: pageKey,
          kind: 'route',
          path: joinPath(pagePath, rel),
          i18nKey: i18nKeyOf(routeKey),
          name,
          permission: `${codeBase}:${opener}`,
          buttons: [],
          sortNum: ri + 1,
          code: `${pageCode}${two(ri + 1)}`,
        });
      });
    });
  }
  for (const r of def.topRoutes ?? []) {
    const key = `${family}.${r.id}`;
    out.push({
      key,
      family,
      parent: null,
      kind: 'route',
      path: r.path,
      i18nKey: i18nKeyOf(key),
      name: r.name,
      permission: `${family}:${r.area}:${r.id}:view`,
      buttons: [],
      sortNum: def.sortBase + 500 + r.no,
      code: `101${digit}${two(r.no)}`,
    });
  }
  return out;
}

export const CATALOG: readonly CatalogEntry[] = [ADMIN, K12, GX, SINGLE, PERSONAL].flatMap(buildFamily);

type RouteIdOf<R> = R extends readonly [infer Id extends string, ...unknown[]] ? Id : never;
type PageIdsOf<P> = P extends PageDef<infer Id, infer R> ? Id | `${Id}.${RouteIdOf<R[number]>}` : never;
type GroupIdsOf<G> = G extends GroupDef<infer Id, infer P> ? `${Id}.${PageIdsOf<P>}` : never;
type ScreenIdsOf<D> = D extends { groups: readonly (infer G)[] } ? GroupIdsOf<G> | (D extends { topRoutes: readonly TopRouteDef<infer T>[] } ? T : never) : never;

/**
 * The screen ids of each catalogue family, known to the compiler. A screen id is a page or hidden route's key without
 * its family ('org.class.edit'); the same id in several families is the same screen, served by each of them.
 */
export interface FamilyScreens {
  admin: ScreenIdsOf<typeof ADMIN>;
  k12: ScreenIdsOf<typeof K12>;
  gx: ScreenIdsOf<typeof GX>;
  single: ScreenIdsOf<typeof SINGLE>;
  personal: ScreenIdsOf<typeof PERSONAL>;
}
export type ScreenId = FamilyScreens[CatalogFamily];

/** The screen id of a catalogue key: the key without its family ('k12.org.class.edit' → 'org.class.edit'). */
export function screenIdOf(key: string): string {
  return key.slice(key.indexOf('.') + 1);
}

/** Path prefix of each catalogue family (docs/product-rules.md#families). */
export const FAMILY_PREFIX: Record<CatalogFamily, string> = {
  admin: '/admin',
  k12: '/k12',
  gx: '/gx',
  single: '/single',
  personal: '/myInfo',
};

/** Standalone always-available paths of the 'single' family that sit outside '/single' (docs/product-rules.md#screens-and-routes). */
export const STANDALONE_PATHS: readonly string[] = SINGLE.topRoutes!.map((r) => r.path);

const byKey = new Map(CATALOG.map((e) => [e.key, e]));

/** The catalogue entry with this key (= menuId), if any. */
export function getCatalogEntry(key: string): CatalogEntry | undefined {
  return byKey.get(key);
}

/** Every entry of one family, in catalogue order. */
export function catalogFor(family: CatalogFamily): CatalogEntry[] {
  return CATALOG.filter((e) => e.family === family);
}

/** Every page and hidden route of a family: what the browser registers as routes (docs/product-rules.md#families). */
export function routeEntries(family: CatalogFamily): CatalogEntry[] {
  return CATALOG.filter((e) => e.family === family && e.kind !== 'group');
}

/** The role-dependent route family of an organisation type (docs/product-rules.md#families); enterprises have none. */
export function familyOfOrgType(type: OrgType): RouteFamily | null {
  switch (type) {
    case ORG_TYPE.management:
      return 'admin';
    case ORG_TYPE.k12:
      return 'k12';
    case ORG_TYPE.university:
      return 'gx';
    default:
      return null;
  }
}

const routable = CATALOG.filter((e) => e.path).map((e) => ({ entry: e, segments: e.path.split('/').filter(Boolean) }));

/**
 * The page or route entry a concrete pathname (without the /busi base) belongs to, e.g.
 * '/k12/user/teacher/edit/42' → 'k12.user.teacher.edit'. Static segments win over params.
 */
export function findCatalogEntry(pathname: string): CatalogEntry | undefined {
  const parts = pathname.split(/[?#]/)[0].split('/').filter(Boolean);
  let best: { entry: CatalogEntry; params: number } | undefined;
  for (const { entry, segments } of routable) {
    if (segments.length !== parts.length) continue;
    let params = 0;
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      if (segments[i].startsWith(':')) params++;
      else ok = segments[i] === parts[i];
    }
    if (ok && (!best || params < best.params)) best = { entry, params };
  }
  return best?.entry;
}
