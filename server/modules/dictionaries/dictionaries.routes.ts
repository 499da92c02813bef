import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dictionaryAnswerSchema,
  dictionaryEntryCreateSchema,
  dictionaryEntryListQuery,
  dictionaryEntrySchema,
  dictionaryEntryUpdateSchema,
  dictionaryParamsSchema,
} from '@/domain/dictionaries/dictionaries';
import type { ServedBy } from '@/domain/menus/access';
import { dictionaryEntries } from '../../db/schema/dictionaries';
import { orgs } from '../../db/schema/orgs';
import { resourceAction, SIGNED_IN } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import {
  createDictionaryEntry,
  deleteDictionaryEntry,
  dictionaryEntryById,
  dictionaryEntryPage,
  dictionaryFor,
  updateDictionaryEntry,
} from './dictionaries.service';

/**
 * 字典管理 (system/dictionary, docs/product-rules.md#dictionaries): the organisation's own entries of an extendable
 * dictionary on the resource kit (add, edit, delete, each audited; a stale save 409; an entry in use 409). The list
 * shows the platform's and the ancestors' entries too, read-only.
 */
export const dictionaryRoutes: FastifyPluginAsync<{ family: ServedBy<'system.dictionary'> }> = async (app, { family }) => {
  await registerResource(app, family, {
    key: `${family}.system.dictionary`,
    entity: 'dictionaryEntry',
    list: { query: dictionaryEntryListQuery, handler: dictionaryEntryPage },
    get: dictionaryEntryById,
    create: { body: dictionaryEntryCreateSchema, handler: createDictionaryEntry },
    update: { body: dictionaryEntryUpdateSchema, handler: updateDictionaryEntry },
    remove: deleteDictionaryEntry,
    response: { row: dictionaryEntrySchema, detail: dictionaryEntrySchema, saved: dictionaryEntrySchema },
  });
};

/**
 * /api/busi/web/dictionaries/:code: a dictionary's effective entries for the signed-in organisation, which every
 * select of the console showing that list reads (any signed-in user: a venue form is no dictionary page). Kept by the
 * read cache until an entry or an organisation changes.
 */
export const dictionaryReadRoutes: FastifyPluginAsyncZod = async (app) => {
  resourceAction(app, {
    method: 'GET',
    path: '/:code',
    access: SIGNED_IN,
    summary: '字典项（本单位可用）',
    params: dictionaryParamsSchema,
    answer: dictionaryAnswerSchema,
    config: { readsTables: [dictionaryEntries, orgs] },
    read: async (db, me, { params }) => dictionaryFor(db, await me.actor(), params.code),
  });
};
