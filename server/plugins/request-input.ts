import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ERR } from '@/domain/errors';
import { AppError } from '../lib/app-error';

/** Deepest object nesting searched for NUL characters; request bodies of this API are shallow. */
const MAX_DEPTH = 8;

/** The path of the first string holding a NUL character (`name`, `items.2.name`), or null. */
export function nulPath(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || '-' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '')].join('.');
    const found = nulPath(item, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Input rules every route shares: a JSON body may be empty (many HTTP clients send `content-type: application/json`
 * with no body on calls that take none), and no text anywhere may hold a NUL character (PostgreSQL text cannot
 * store it), so such input is a 400 naming the field instead of a database error.
 */
export const requestInputPlugin = fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, done);
    });

    app.addHook('preValidation', async (request: FastifyRequest) => {
      for (const part of [request.params, request.query, request.body]) {
        const field = nulPath(part);
        if (field !== null) throw new AppError(400, ERR.invalidCharacter, { field });
      }
    });
  },
  { name: 'tiyu-request-input' },
);
