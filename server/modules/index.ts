import type { FastifyInstance } from 'fastify';
import { captchaRoutes } from './captcha/captcha.routes';
import type { ModuleOptions } from './module-options';
import { myInfoRoutes } from './my-info/my-info.routes';
import { schoolRoutes } from './school/school.routes';
import { ssoRoutes } from './sso/sso.routes';
import { tenantOrgRoutes } from './tenant-org/tenant-org.routes';

/** The one explicit list of modules and their prefixes (spec §7 gateway prefixes). */
export async function registerModules(app: FastifyInstance, opts: ModuleOptions): Promise<void> {
  await app.register(captchaRoutes, { prefix: '/api', ...opts });
  await app.register(ssoRoutes, { prefix: '/api/sso', ...opts });
  await app.register(myInfoRoutes, { prefix: '/api/busi/web/myInfo' });
  await app.register(tenantOrgRoutes, { prefix: '/api/oper/web/cs/tenantOrg' });
  await app.register(schoolRoutes, { prefix: '/api/busi/web/k12', family: 'k12' });
  await app.register(schoolRoutes, { prefix: '/api/busi/web/gx', family: 'gx' });
}
