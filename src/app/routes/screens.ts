import type { ScreenLoader } from './lazy-screen';

/**
 * Screen registry: catalogue key → lazily loaded screen (spec §2). Keys missing here render the
 * "not available yet" page for that catalogue entry. Every screen is a separate chunk so the login
 * route never pulls charts or spreadsheets.
 */
export const SCREENS: Readonly<Record<string, ScreenLoader>> = {
  'personal.myInfo.base': () => import('./my-info/base').then((m) => ({ default: m.MyInfoBasePage })),
  'personal.myInfo.editUser': () => import('./my-info/edit-user').then((m) => ({ default: m.EditUserPage })),
  'personal.myInfo.editAccount': () => import('./my-info/edit-account').then((m) => ({ default: m.EditAccountPage })),
  'admin.test.testManage': () => import('./physique/test-manage').then((m) => ({ default: m.TestManagePage })),
  'admin.test.testManage.add': () => import('./physique/test-manage').then((m) => ({ default: m.TestManageAddPage })),
  'admin.test.testManage.check': () => import('./physique/test-manage').then((m) => ({ default: m.TestManageCheckPage })),
  'admin.test.scoreSearch': () => import('./physique/score-search').then((m) => ({ default: m.ScoreSearchPage })),
  'admin.sportData.testRecord': () => import('./physique/test-record').then((m) => ({ default: m.TestRecordPage })),
  'k12.test.testManage': () => import('./physique/test-manage').then((m) => ({ default: m.TestManagePage })),
  'k12.test.testManage.add': () => import('./physique/test-manage').then((m) => ({ default: m.TestManageAddPage })),
  'k12.test.testManage.check': () => import('./physique/test-manage').then((m) => ({ default: m.TestManageCheckPage })),
  'k12.test.scoreSearch': () => import('./physique/score-search').then((m) => ({ default: m.ScoreSearchPage })),
  'k12.sportData.testRecord': () => import('./physique/test-record').then((m) => ({ default: m.TestRecordPage })),
  'gx.test.testManage': () => import('./physique/test-manage').then((m) => ({ default: m.TestManagePage })),
  'gx.test.testManage.add': () => import('./physique/test-manage').then((m) => ({ default: m.TestManageAddPage })),
  'gx.test.testManage.check': () => import('./physique/test-manage').then((m) => ({ default: m.TestManageCheckPage })),
  'gx.test.scoreSearch': () => import('./physique/score-search').then((m) => ({ default: m.ScoreSearchPage })),
  'gx.sportData.testRecord': () => import('./physique/test-record').then((m) => ({ default: m.TestRecordPage })),
  'k12.test.testResult': () => import('./physique/test-result').then((m) => ({ default: m.TestResultPage })),
  'k12.test.testResult.editUpReport': () => import('./physique/test-result').then((m) => ({ default: m.EditUpReportPage })),
  'single.scoreReport': () => import('./physique/score-report').then((m) => ({ default: m.ScoreReportPage })),
  'single.scoreReportK12': () => import('./physique/score-report').then((m) => ({ default: m.ScoreReportPage })),
  'k12.dataCenter.school': () => import('./data-center/school').then((m) => ({ default: m.DataCenterSchoolPage })),
  'k12.dataCenter.grade': () => import('./data-center/grade').then((m) => ({ default: m.DataCenterGradePage })),
  'k12.dataCenter.class': () => import('./data-center/class').then((m) => ({ default: m.DataCenterClassListPage })),
  'k12.dataCenter.class.detail': () => import('./data-center/class').then((m) => ({ default: m.DataCenterClassDetailPage })),
  'k12.dataCenter.student': () => import('./data-center/student').then((m) => ({ default: m.DataCenterStudentListPage })),
  'k12.dataCenter.student.detail': () => import('./data-center/student').then((m) => ({ default: m.DataCenterStudentDetailPage })),
  'gx.dataCenter.school': () => import('./data-center/school').then((m) => ({ default: m.DataCenterSchoolPage })),
  'gx.dataCenter.college': () => import('./data-center/college').then((m) => ({ default: m.DataCenterCollegePage })),
  'gx.dataCenter.class': () => import('./data-center/class').then((m) => ({ default: m.DataCenterClassListPage })),
  'gx.dataCenter.class.detail': () => import('./data-center/class').then((m) => ({ default: m.DataCenterClassDetailPage })),
  'gx.dataCenter.student': () => import('./data-center/student').then((m) => ({ default: m.DataCenterStudentListPage })),
  'gx.dataCenter.student.detail': () => import('./data-center/student').then((m) => ({ default: m.DataCenterStudentDetailPage })),
};
