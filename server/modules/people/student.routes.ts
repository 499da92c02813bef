import type { FastifyPluginAsync } from 'fastify';
import { keywordQuery } from '@/domain/list-query';
import {
  personOptionsSchema,
  studentDetailSchema,
  studentFormOptionsSchema,
  studentListQuery,
  studentRecordSchema,
  studentSaveSchema,
  studentTransferResultSchema,
  studentTransferSchema,
} from '@/domain/people/students';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { appAccountRoutes } from './app-account';
import { shownRows } from '../../lib/sensitive';
import { createStudent, deleteStudent, parentOptions, studentById, studentFormOptions, studentPage, transferStudents, updateStudent } from './student.service';
import type { SchoolFamily } from '@/domain/menus/access';

/** Students of /api/busi/web/{k12|gx}/user/student (docs/product-rules.md#students-and-staff), on the resource kit. */
export const studentRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  const key = `${family}.user.student`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'student',
      // Parents' mobiles masked without the page's "view sensitive fields" button, unmasked views logged (docs/product-rules.md#data-scopes).
      sensitive: { parents: { mobile: 'mobile' }, idCard: 'idNumber' },
      list: { query: studentListQuery, handler: studentPage },
      get: studentById,
      create: { body: studentSaveSchema, handler: createStudent },
      update: { body: studentSaveSchema, handler: updateStudent },
      remove: deleteStudent,
      response: { row: studentRecordSchema, detail: studentDetailSchema, saved: studentRecordSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], read: studentFormOptions, answer: studentFormOptionsSchema });
      resourceAction(scope, {
        method: 'GET',
        path: '/parent-options',
        access: [key, 'view'],
        query: keywordQuery,
        // On the primary: an unmasked view is logged (a write).
        reads: 'primary',
        read: async (db, actor, { query }, { now }) => shownRows(db, actor, key, await parentOptions(db, actor, query.keyword), { hint: 'mobile' }, now),
        answer: personOptionsSchema,
      });
      // A transfer is an edit of each student's class: the service writes one audit row per student moved.
      resourceAction(scope, {
        method: 'POST',
        path: '/transfer',
        access: [key, 'edit'],
        body: studentTransferSchema,
        entity: 'student',
        audit: 'transfer',
        answer: studentTransferResultSchema,
        write: async (tx, actor, { body }) => ({ after: await transferStudents(tx, actor, body), audited: false }),
      });
      appAccountRoutes(scope, { key, entity: 'student', now: () => app.now() });
    },
  );
};
