import type { FastifyPluginAsync } from 'fastify';
import {
  consentCoverageQuery,
  consentCoverageSchema,
  consentExportQuery,
  consentHistorySchema,
  consentListQuery,
  consentOptionsSchema,
  consentRecordSchema,
  consentRowSchema,
} from '@/domain/consent/consent';
import type { ConsentState } from '@/domain/consent/consent';
import { OK_MSG } from '@/domain/errors';
import type { AuditAction } from '@/domain/platform/audit';
import { idParamsSchema as idParams } from '@/domain/list-query';
import type { ServedBy } from '@/domain/menus/access';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { consentWorkbook } from './consent-export';
import { consentCoverage, consentHistory, consentOptions, consentPage, consentRowOf, consentRows, recordConsent } from './consent.service';

/** The operation log's action of each recorded state. */
const AUDIT_OF_STATE = { given: 'giveConsent', withdrawn: 'withdrawConsent' } as const satisfies Record<ConsentState, AuditAction>;

/**
 * The school side of the guardian consent register (system/consent, docs/product-rules.md#consent): the students of
 * the user's classes with their state per purpose (the missing ones by filter), coverage per class and purpose, a
 * student's history, recording a signed form (button edit; the scan is required) and the export.
 */
export const consentRoutes: FastifyPluginAsync<{ family: ServedBy<'system.consent'> }> = async (app, { family }) => {
  const key = `${family}.system.consent`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'studentConsent',
      list: { query: consentListQuery, handler: consentPage },
      get: consentRowOf,
      response: { row: consentRowSchema, detail: consentRowSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [key, 'view'], answer: consentOptionsSchema, read: consentOptions });
      resourceAction(scope, {
        method: 'GET',
        path: '/coverage',
        access: [key, 'view'],
        query: consentCoverageQuery,
        answer: consentCoverageSchema,
        summary: 'Per class and purpose: students on the roll and how many gave consent',
        read: (db, actor, { query }) => consentCoverage(db, actor, query),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/history',
        access: [key, 'view'],
        params: idParams,
        answer: consentHistorySchema,
        summary: "Every change of a student's consent, newest first",
        read: (db, actor, { params }) => consentHistory(db, actor, params.id),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/record',
        access: [key, 'edit'],
        params: idParams,
        body: consentRecordSchema,
        entity: 'studentConsent',
        audit: ({ body }) => AUDIT_OF_STATE[body.state],
        message: OK_MSG.operation,
        answers: 'nothing',
        summary: "Record a guardian's signed form (given or withdrawn) with its scan (stale version: 409)",
        write: (tx, actor, { params, body }) => recordConsent(tx, actor, params.id, body, app.now()),
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/export',
        access: [key, 'export'],
        query: consentExportQuery,
        answers: 'file',
        // Students and their guardians' consents (docs/product-rules.md#personal-data-access).
        approval: { rows: async (db, actor, { query }) => (await consentRows(db, actor, query)).length },
        read: async (db, actor, { query }, { t }) => consentWorkbook(await consentRows(db, actor, query), t),
      });
    },
  );
};
