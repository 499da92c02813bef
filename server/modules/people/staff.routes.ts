import type { FastifyPluginAsync } from 'fastify';
import { staffCreateSchema, staffFormOptionsSchema, staffListQuery, staffListRowSchema, staffRowSchema, staffUpdateSchema } from '@/domain/people/staff';
import { accountRoutes } from '../../lib/accounts';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { createStaff, deleteStaff, resetStaffPassword, setStaffStatus, staffById, staffFormOptions, staffPage, updateStaff } from './staff.service';
import type { SchoolFamily } from '@/domain/menus/access';

/**
 * Staff of /api/busi/web/{k12|gx}/user/teacher (docs/product-rules.md#students-and-staff): the resource, the form's
 * options, and enable/disable and password reset of their accounts as the admin users screen has them.
 */
export const staffRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  const key = `${family}.user.teacher`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'staff',
      // Mobiles masked without the page's "view sensitive fields" button, unmasked views logged (docs/product-rules.md#data-scopes).
      sensitive: { mobile: 'mobile', idCard: 'idNumber', certificateNo: 'idNumber' },
      list: { query: staffListQuery, handler: staffPage },
      get: staffById,
      create: { body: staffCreateSchema, handler: createStaff },
      update: { body: staffUpdateSchema, handler: (tx, actor, id, body) => updateStaff(tx, actor, id, body, app.now()) },
      remove: (tx, actor, id) => deleteStaff(tx, actor, id, app.now()),
      response: { row: staffListRowSchema, detail: staffRowSchema, saved: staffRowSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], read: staffFormOptions, answer: staffFormOptionsSchema });
      accountRoutes(scope, {
        key,
        entity: 'staff',
        setStatus: (tx, actor, id, enabled) => setStaffStatus(tx, actor, id, enabled, app.now()),
        resetPassword: (tx, actor, id, body) => resetStaffPassword(tx, actor, id, body, app.now()),
        row: staffRowSchema,
      });
    },
  );
};
