import type { FastifyInstance } from 'fastify';
import { familyApi, servedBy } from '@/domain/menus/access';
import { captchaRoutes } from './captcha/captcha.routes';
import { bannerRoutes, carouselRoutes, lessonResourceRoutes, wikiRoutes } from './content/content.routes';
import { dataCenterRoutes } from './data-center/data-center.routes';
import { filesRoutes } from './files/files.routes';
import { healthRoutes } from './health/health.routes';
import { homeworkRoutes } from './homework/homework.routes';
import { trainingRoutes } from './training/training.routes';

import { ingestRoutes } from './ingest/ingest.routes';
import { lessonRoutes } from './lessons/lessons.routes';
import type { ModuleOptions } from './module-options';
import { meetBoardLinkRoutes } from './meets/board-links.routes';
import { meetDocumentRoutes } from './meets/documents.routes';
import { meetRoutes } from './meets/meets.routes';
import { menuRoutes } from './menus/menus.routes';
import { myInfoRoutes } from './my-info/my-info.routes';
import { orgRoutes } from './org/org.routes';
import { logsRoutes } from './platform/logs.routes';
import { districtRoutes } from './district/district.routes';
import { peopleImportRoutes } from './people/people-import.routes';
import { parentRoutes } from './people/parent.routes';
import { studentRoutes } from './people/student.routes';
import { orgManageRoutes } from './org-manage/org-manage.routes';
import { contestRoutes } from './contests/contests.routes';
import { exerciseRecordRoutes } from './activities/exercise-records.routes';
import { facePhotoRoutes } from './people/face-photos.routes';
import { staffRoutes } from './people/staff.routes';
import { physiqueRoutes } from './physique/physique.routes';
import { roleRoutes } from './role/role.routes';
import { schoolRoutes } from './school/school.routes';
import { wallRoutes } from './wall/wall.routes';
import { ssoRoutes } from './sso/sso.routes';
import { tenantOrgRoutes } from './tenant-org/tenant-org.routes';
import { venueRoutes } from './venue/venue.routes';
import { userRoutes } from './users/users.routes';
import { testPlanLifecycle } from './test-plan/test-plan.lifecycle';
import { testPlanRoutes } from './test-plan/test-plan.routes';
import { jobRoutes } from './jobs/jobs.routes';

/**
 * The one explicit list of modules and their prefixes (docs/product-rules.md#calls). A family module is registered
 * under each role family whose catalogue has the pages it serves (`servedBy`), so the families come from the
 * catalogue and its `family` option type (ServedBy, SchoolFamily) must accept them.
 */
export async function registerModules(app: FastifyInstance, opts: ModuleOptions): Promise<void> {
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(captchaRoutes, { prefix: '/api', ...opts });
  await app.register(ssoRoutes, { prefix: '/api/sso', ...opts });
  await app.register(myInfoRoutes, { prefix: '/api/busi/web/myInfo', ...opts });
  await app.register(tenantOrgRoutes, { prefix: '/api/oper/web/cs/tenantOrg' });
  for (const family of servedBy('org.acayear', 'org.grade', 'org.class')) await app.register(schoolRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('org.currentOrg', 'org.orgInfo', 'org.department')) await app.register(orgManageRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('org.acayear', 'org.grade', 'org.class', 'org.college', 'org.major')) await app.register(orgRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('user.teacher')) await app.register(staffRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('venue.device', 'venue.place')) await app.register(venueRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('user.teacher', 'user.student')) await app.register(facePhotoRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('test.testManage', 'test.scoreSearch', 'test.testResult', 'sportData.testRecord')) await app.register(physiqueRoutes, { prefix: familyApi(family), family, storage: opts.storage });
  for (const family of servedBy('user.role')) await app.register(roleRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('user.student')) await app.register(studentRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('user.parent')) await app.register(parentRoutes, { prefix: familyApi(family) });
  for (const family of servedBy('user.user')) await app.register(userRoutes, { prefix: familyApi(family) });
  for (const family of servedBy('user.user', 'user.teacher', 'user.student')) await app.register(peopleImportRoutes, { prefix: familyApi(family), family, storage: opts.storage });
  for (const family of servedBy('sportData.exerciseRecord')) await app.register(exerciseRecordRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('contest.competitionRank', 'contest.competition')) await app.register(contestRoutes, { prefix: familyApi(family), family });
  await app.register(testPlanLifecycle);
  for (const family of servedBy('test.testManage')) await app.register(testPlanRoutes, { prefix: `${familyApi(family)}/organizeTest/testManage`, family });
  for (const family of servedBy('dataCenter.school', 'dataCenter.overview')) await app.register(dataCenterRoutes, { prefix: `${familyApi(family)}/dataCenter`, family });
  for (const family of servedBy('system.signInLog', 'system.operationLog', 'system.onlineSession')) await app.register(logsRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('dataCenter.overview')) await app.register(districtRoutes, { prefix: familyApi(family) });
  await app.register(menuRoutes, { prefix: '/api/busi/web/menuManagement' });

  for (const family of servedBy('banner.bannerConfig')) await app.register(bannerRoutes, { prefix: familyApi(family), family });
  await app.register(carouselRoutes, { prefix: '/api/oper/web/cs/banner' });
  for (const family of servedBy('wiki.schoolWiki')) await app.register(wikiRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('lesson.lessonResource', 'lesson.resourceLibrary')) await app.register(lessonResourceRoutes, { prefix: familyApi(family), family, storage: opts.storage });

  for (const family of servedBy('sportsMeet.manage')) await app.register(meetRoutes, { prefix: familyApi(family), family });
  for (const family of servedBy('sportsMeet.manage')) await app.register(meetDocumentRoutes, { prefix: familyApi(family), family, storage: opts.storage });
  for (const family of servedBy('sportsMeet.manage')) await app.register(meetBoardLinkRoutes, { prefix: familyApi(family), family });

  for (const family of servedBy('homework.homeworkManagement')) await app.register(homeworkRoutes, { prefix: familyApi(family), family, expireEveryMs: opts.fileSweepEveryMs });
  for (const family of servedBy('training.specialTraining')) await app.register(trainingRoutes, { prefix: familyApi(family) });
  await app.register(wallRoutes, { prefix: '/api/screen' });
  for (const family of servedBy('class.practise', 'class.test', 'class.match')) await app.register(lessonRoutes, { prefix: familyApi(family), family });
  await app.register(ingestRoutes, { prefix: '/api', ...opts });
  await app.register(jobRoutes, { prefix: '/api/busi/web/jobs', storage: opts.storage });
  await app.register(filesRoutes, { prefix: '/api/uc/oss', storage: opts.storage, sweepEveryMs: opts.fileSweepEveryMs });
}
