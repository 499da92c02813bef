import type { FastifyInstance } from 'fastify';
import { servedBy } from '@/domain/menus/access';
import { monitorRoutes } from './lesson-load/monitor.routes';
import { testDayRoutes } from './test-day/test-day.routes';
import { captchaRoutes } from './auth/captcha.routes';
import { bannerRoutes, carouselRoutes, lessonResourceRoutes, wikiRoutes } from './content/content.routes';
import { conversionRoutes } from './conversion/conversion.routes';
import { dataCenterRoutes } from './data-center/data-center.routes';
import { filesRoutes } from './files/files.routes';
import { healthRoutes } from './health/health.routes';
import { homeworkRoutes } from './homework/homework.routes';
import { exemptionRoutes } from './exemptions/exemptions.routes';
import { consentRoutes } from './consent/consent.routes';
import { trainingRoutes } from './training/training.routes';
import { districtWarningRoutes, warningRoutes } from './warnings/warnings.routes';

import { ingestRoutes } from './ingest/ingest.routes';
import { lessonRoutes } from './lessons/lessons.routes';
import { loadReportRoutes } from './lesson-load/report.routes';
import { loadDistrictRoutes, loadSummaryRoutes } from './lesson-load/summary.routes';
import type { ModuleOptions } from './module-options';
import { meetBoardLinkRoutes } from './meets/board-links.routes';
import { meetDocumentRoutes } from './meets/documents.routes';
import { meetRoutes } from './meets/meets.routes';
import { menuRoutes } from './menus/menus.routes';
import { myInfoRoutes } from './my-info/my-info.routes';
import { noticeInboxRoutes, noticeRoutes } from './notices/notices.routes';
import { listSettingsRoutes } from './list-settings/list-settings.routes';
import { dictionaryReadRoutes, dictionaryRoutes } from './dictionaries/dictionaries.routes';
import { orgRoutes } from './school/structure.routes';
import { logsRoutes } from './platform/logs.routes';
import { dataAccessRoutes, myExportsRoutes } from './data-access/data-access.routes';
import { districtRoutes } from './data-center/district.routes';
import { peopleImportRoutes } from './people/people-import.routes';
import { parentRoutes } from './people/parent.routes';
import { studentRoutes } from './people/student.routes';
import { orgManageRoutes } from './org-manage/org-manage.routes';
import { contestRoutes } from './contests/contests.routes';
import { exerciseRecordRoutes } from './activities/exercise-records.routes';
import { facePhotoRoutes } from './people/face-photos.routes';
import { staffRoutes } from './people/staff.routes';
import { physiqueRoutes } from './physique-results/physique-results.routes';
import { roleRoutes } from './roles/roles.routes';
import { schoolRoutes } from './school/school.routes';
import { wallRoutes } from './wall/wall.routes';
import { ssoRoutes } from './auth/sso.routes';
import { tenantOrgRoutes } from './org-manage/tenant-org.routes';
import { venueRoutes } from './venue/venue.routes';
import { userRoutes } from './users/users.routes';
import { testPlanLifecycle } from './test-plans/test-plans.lifecycle';
import { heartRateLifecycle } from './lesson-load/heart-rate.lifecycle';
import { schoolYearPartitionsLifecycle } from './retention/school-year-partitions.lifecycle';
import { retentionLifecycle } from './retention/retention.lifecycle';
import { dataRequestRoutes, retentionRoutes } from './retention/retention.routes';
import { testPlanRoutes } from './test-plans/test-plans.routes';
import { testSheetRoutes } from './test-day/test-sheets.routes';
import { retestRoutes } from './retest/retest.routes';
import { reportReleaseRoutes } from './parent-reports/parent-reports.routes';
import { jobRoutes } from './jobs/jobs.routes';
import { messageRoutes } from './messages/messages.routes';
import { mourningPublicRoutes, shellRoutes } from './shell/shell.routes';
import { mySecurityRoutes, securitySettingsRoutes } from './security/security.routes';
import { graduationRoutes } from './graduation/graduation.routes';
import { registerConsoleDocs } from '../lib/openapi';

/** Where the console's API lives: every route under it needs a signed-in session. */
const CONSOLE_API = '/api/busi/web';

/**
 * The one explicit list of modules and their prefixes (docs/product-rules.md#calls). A family module is registered
 * under each role family whose catalogue has the pages it serves (`servedBy`), so the families come from the
 * catalogue and its `family` option type (ServedBy, SchoolFamily) must accept them.
 */
export async function registerModules(app: FastifyInstance, opts: ModuleOptions): Promise<void> {
  // Public: health, sign-in (captcha, sso), the login screen's carousel, the wall's links, the device/app API (its own
  // credentials) and the file routes (each scope signs in its own way).
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(captchaRoutes, { prefix: '/api', ...opts });
  await app.register(ssoRoutes, { prefix: '/api/sso', ...opts });
  await app.register(tenantOrgRoutes, { prefix: '/api/oper/web/cs/tenantOrg' });
  await app.register(carouselRoutes, { prefix: '/api/oper/web/cs/banner' });
  await app.register(mourningPublicRoutes, { prefix: '/api/oper/web/cs/mourning' });
  await app.register(testPlanLifecycle);
  await app.register(heartRateLifecycle, { rawDays: opts.heartRateRawDays });
  await app.register(schoolYearPartitionsLifecycle);
  await app.register(retentionLifecycle, { storage: opts.storage, heartRateRawDays: opts.heartRateRawDays, enabled: opts.fileSweepEveryMs > 0 });
  // The console API's OpenAPI document collects the routes registered after it (server/lib/openapi.ts).
  await registerConsoleDocs(app);
  // The console API: authenticated once here for all of its modules (docs/decisions/020-resource-kit.md).
  await app.register(
    async (web) => {
      web.addHook('onRequest', web.authenticate);
      await consoleModules(web, opts);
    },
    { prefix: CONSOLE_API },
  );
  await app.register(wallRoutes, { prefix: '/api/screen' });
  await app.register(ingestRoutes, { prefix: '/api', ...opts });
  await app.register(filesRoutes, { prefix: '/api/uc/oss', storage: opts.storage, sweepEveryMs: opts.fileSweepEveryMs });
}

/** The console's modules, relative to /api/busi/web. */
async function consoleModules(app: FastifyInstance, opts: ModuleOptions): Promise<void> {
  await app.register(myInfoRoutes, { prefix: '/myInfo', ...opts });
  await app.register(noticeInboxRoutes, { prefix: '/myInfo/notices', storage: opts.storage });
  for (const family of servedBy('system.notice')) await app.register(noticeRoutes, { prefix: `/${family}`, family });
  await app.register(mySecurityRoutes, { prefix: '/myInfo/security', ...opts });
  await app.register(myExportsRoutes, { prefix: '/myInfo/exports' });
  for (const family of servedBy('system.security')) await app.register(securitySettingsRoutes, { prefix: `/${family}`, family });
  await app.register(listSettingsRoutes, { prefix: '/listSettings' });
  for (const family of servedBy('org.acayear', 'org.grade', 'org.class')) await app.register(schoolRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('org.currentOrg', 'org.orgInfo', 'org.department')) await app.register(orgManageRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('org.acayear', 'org.grade', 'org.class', 'org.college', 'org.major')) await app.register(orgRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('user.teacher')) await app.register(staffRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('venue.device', 'venue.place')) await app.register(venueRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('test.testDay')) await app.register(testDayRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('user.teacher', 'user.student')) await app.register(facePhotoRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('test.testManage', 'test.scoreSearch', 'test.testResult', 'sportData.testRecord')) await app.register(physiqueRoutes, { prefix: `/${family}`, family, storage: opts.storage });
  for (const family of servedBy('user.role')) await app.register(roleRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('system.sensitiveLog', 'system.exportApproval')) await app.register(dataAccessRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('user.student')) await app.register(studentRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('user.parent')) await app.register(parentRoutes, { prefix: `/${family}` });
  for (const family of servedBy('user.user')) await app.register(userRoutes, { prefix: `/${family}` });
  for (const family of servedBy('user.user', 'user.teacher', 'user.student')) await app.register(peopleImportRoutes, { prefix: `/${family}`, family, storage: opts.storage });
  for (const family of servedBy('sportData.exerciseRecord')) await app.register(exerciseRecordRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('contest.competitionRank', 'contest.competition')) await app.register(contestRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('test.conversion')) await app.register(conversionRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('test.testManage')) await app.register(testPlanRoutes, { prefix: `/${family}/organizeTest/testManage`, family });
  for (const family of servedBy('test.graduation')) await app.register(graduationRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('test.retest')) await app.register(retestRoutes, { prefix: `/${family}/physiqueManage/retest`, family });
  for (const family of servedBy('test.testManage')) await app.register(reportReleaseRoutes, { prefix: `/${family}/organizeTest/testManage`, family });
  for (const family of servedBy('dataCenter.school', 'dataCenter.overview')) await app.register(dataCenterRoutes, { prefix: `/${family}/dataCenter`, family });
  for (const family of servedBy('system.signInLog', 'system.operationLog', 'system.onlineSession')) await app.register(logsRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('system.retention')) await app.register(retentionRoutes, { prefix: `/${family}`, family, storage: opts.storage });
  for (const family of servedBy('system.dataRequest')) await app.register(dataRequestRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('dataCenter.overview')) await app.register(districtRoutes, { prefix: `/${family}` });
  await app.register(menuRoutes, { prefix: '/menuManagement' });
  await app.register(shellRoutes, { prefix: '/shell', ...opts });

  for (const family of servedBy('banner.bannerConfig')) await app.register(bannerRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('wiki.schoolWiki')) await app.register(wikiRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('lesson.lessonResource', 'lesson.resourceLibrary')) await app.register(lessonResourceRoutes, { prefix: `/${family}`, family, storage: opts.storage });

  for (const family of servedBy('sportsMeet.manage')) await app.register(meetRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('sportsMeet.manage')) await app.register(meetDocumentRoutes, { prefix: `/${family}`, family, storage: opts.storage });
  for (const family of servedBy('sportsMeet.manage')) await app.register(meetBoardLinkRoutes, { prefix: `/${family}`, family });

  for (const family of servedBy('homework.homeworkManagement')) await app.register(homeworkRoutes, { prefix: `/${family}`, family, expireEveryMs: opts.fileSweepEveryMs });
  for (const family of servedBy('training.specialTraining')) await app.register(trainingRoutes, { prefix: `/${family}` });
  for (const family of servedBy('test.exemption')) await app.register(exemptionRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('system.consent')) await app.register(consentRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('class.practise', 'class.test', 'class.match')) await app.register(lessonRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('class.load.lesson')) await app.register(loadReportRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('class.monitor')) await app.register(monitorRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('test.testDay')) await app.register(testSheetRoutes, { prefix: `/${family}`, family });
  for (const family of servedBy('test.warning')) await app.register(warningRoutes, { prefix: `/${family}`, family });
  for (const _family of servedBy('dataCenter.overview').filter((f) => f === 'admin')) await app.register(districtWarningRoutes, { prefix: '/admin' });
  for (const family of servedBy('class.load.summary')) await app.register(loadSummaryRoutes, { prefix: `/${family}`, family });
  if (servedBy('class.load').includes('admin')) await app.register(loadDistrictRoutes, { prefix: '/admin' });
  await app.register(jobRoutes, { prefix: '/jobs', storage: opts.storage });
  await app.register(messageRoutes);
  await app.register(dictionaryReadRoutes, { prefix: '/dictionaries' });
  for (const family of servedBy('system.dictionary')) await app.register(dictionaryRoutes, { prefix: `/${family}`, family });
}
