import type { FastifyInstance } from 'fastify';
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

/** The one explicit list of modules and their prefixes (docs/product-rules.md#calls). */
export async function registerModules(app: FastifyInstance, opts: ModuleOptions): Promise<void> {
  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(captchaRoutes, { prefix: '/api', ...opts });
  await app.register(ssoRoutes, { prefix: '/api/sso', ...opts });
  await app.register(myInfoRoutes, { prefix: '/api/busi/web/myInfo', ...opts });
  await app.register(tenantOrgRoutes, { prefix: '/api/oper/web/cs/tenantOrg' });
  await app.register(schoolRoutes, { prefix: '/api/busi/web/k12', family: 'k12' });
  await app.register(schoolRoutes, { prefix: '/api/busi/web/gx', family: 'gx' });
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(orgManageRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['k12', 'gx'] as const) await app.register(orgRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['k12', 'gx'] as const) await app.register(staffRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['k12', 'gx'] as const) await app.register(venueRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['k12', 'gx'] as const) await app.register(facePhotoRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(physiqueRoutes, { prefix: `/api/busi/web/${family}`, family, storage: opts.storage });
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(roleRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['k12', 'gx'] as const) await app.register(studentRoutes, { prefix: `/api/busi/web/${family}`, family });
  await app.register(parentRoutes, { prefix: '/api/busi/web/k12' });
  await app.register(userRoutes, { prefix: '/api/busi/web/admin' });
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(peopleImportRoutes, { prefix: `/api/busi/web/${family}`, family, storage: opts.storage });
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(exerciseRecordRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(contestRoutes, { prefix: `/api/busi/web/${family}`, family });
  await app.register(testPlanLifecycle);
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(testPlanRoutes, { prefix: `/api/busi/web/${family}/organizeTest/testManage`, family });
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(dataCenterRoutes, { prefix: `/api/busi/web/${family}/dataCenter`, family });
  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(logsRoutes, { prefix: `/api/busi/web/${family}`, family });
  await app.register(districtRoutes, { prefix: '/api/busi/web/admin' });
  await app.register(menuRoutes, { prefix: '/api/busi/web/menuManagement' });

  for (const family of ['admin', 'k12', 'gx'] as const) await app.register(bannerRoutes, { prefix: `/api/busi/web/${family}`, family });
  await app.register(carouselRoutes, { prefix: '/api/oper/web/cs/banner' });
  for (const family of ['k12', 'gx'] as const) await app.register(wikiRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['admin', 'k12'] as const) await app.register(lessonResourceRoutes, { prefix: `/api/busi/web/${family}`, family, storage: opts.storage });

  for (const family of ['k12', 'gx'] as const) await app.register(meetRoutes, { prefix: `/api/busi/web/${family}`, family });
  for (const family of ['k12', 'gx'] as const) await app.register(meetDocumentRoutes, { prefix: `/api/busi/web/${family}`, family, storage: opts.storage });
  for (const family of ['k12', 'gx'] as const) await app.register(meetBoardLinkRoutes, { prefix: `/api/busi/web/${family}`, family });

  for (const family of ['admin', 'k12'] as const) await app.register(homeworkRoutes, { prefix: `/api/busi/web/${family}`, family, expireEveryMs: opts.fileSweepEveryMs });
  await app.register(trainingRoutes, { prefix: '/api/busi/web/k12' });
  await app.register(wallRoutes, { prefix: '/api/screen' });
  for (const family of ['admin', 'k12'] as const) await app.register(lessonRoutes, { prefix: `/api/busi/web/${family}`, family });
  await app.register(ingestRoutes, { prefix: '/api', ...opts });
  await app.register(jobRoutes, { prefix: '/api/busi/web/jobs', storage: opts.storage });
  await app.register(filesRoutes, { prefix: '/api/uc/oss', storage: opts.storage, sweepEveryMs: opts.fileSweepEveryMs });
}
