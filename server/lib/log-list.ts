import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Page } from '@/domain/api';
import type { Family } from '@/domain/menus/access';
import type { DbOrTx } from '../db/client';
import type { Actor } from '../plugins/tenant';
import { resourceAction, type ActionContext } from './action';
import type { ListSheet } from './list-export';
import { relativeApi } from './resource';

/** Rows an export holds at most (newest first): a log is read in pages, an export is for a time range. */
export const LOG_EXPORT_MAX = 50_000;

/**
 * A log screen's routes (the sign-in, operation, unmasked-view and access logs; docs/product-rules.md#platform-logs):
 * a page of rows and their export, nothing else. A log is never edited through the product, so the kit has no write.
 */
export interface LogListSpec<Q extends z.ZodType, Row> {
  /** The catalogue page: API prefix, `view` for the page, `export` for the file. */
  key: string;
  query: Q;
  /** The page's row schema page (src/domain) for the OpenAPI document. */
  answer: z.ZodType;
  page(db: DbOrTx, actor: Actor, q: z.output<Q>): Promise<Page<Row>>;
  /** The export's rows (at most LOG_EXPORT_MAX, newest first). */
  rows(db: DbOrTx, actor: Actor, q: z.output<Q>): Promise<Row[]>;
  /** The rows as the list's sheet: each column names the list column it shows. */
  sheet(rows: readonly Row[], t: ActionContext['t']): ListSheet;
  /** The file's name (an i18n key), without `.xlsx`. */
  fileName: `${string}:${string}`;
}

/** Registers a log's `GET /page` and `GET /export` under its page's API path; `extra` adds the log's own reads. */
export async function registerLogList<Q extends z.ZodType, Row>(app: FastifyInstance, family: Family, spec: LogListSpec<Q, Row>, extra?: (scope: FastifyInstance) => void): Promise<void> {
  await app.register(
    async (r) => {
      resourceAction(r, { method: 'GET', path: '/page', access: [spec.key, 'view'], query: spec.query, read: (db, actor, { query }) => spec.page(db, actor, query as z.output<Q>), answer: spec.answer });
      resourceAction(r, {
        method: 'GET',
        path: '/export',
        access: [spec.key, 'export'],
        query: spec.query,
        answers: 'file',
        // Every log's rows name people (accounts, holders, whose records): personal data (docs/product-rules.md#personal-data-access).
        approval: { rows: async (db, actor, { query }) => (await spec.rows(db, actor, query as z.output<Q>)).length },
        read: async (db, actor, { query }, { t }) => ({ sheet: spec.sheet(await spec.rows(db, actor, query as z.output<Q>), t), fileName: `${t(spec.fileName)}.xlsx` }),
      });
      extra?.(r);
    },
    { prefix: relativeApi(spec.key, family) },
  );
}
