import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { fail } from '@/domain/api';
import { ERR, type ErrorKey } from '@/domain/errors';
import { GENERIC_MESSAGES } from '@/domain/fields';
import { toLocale } from '@/domain/i18n/language';
import { isAppError, isUniqueViolation } from '../lib/app-error';

/** Message of a status the handler answers without a more specific key. */
const STATUS_KEY: Record<number, ErrorKey> = {
  400: ERR.badRequest,
  401: ERR.sessionExpired,
  403: ERR.forbidden,
  404: ERR.notFound,
  429: ERR.tooManyRequests,
};

/** An i18n key as zod messages carry them ('validation:login.codeRequired'). */
const I18N_KEY = /^[a-zA-Z]+:[\w.]+$/;

/**
 * The one error handler (architecture rule 4): every failure answers `{code, data: null, msg}`
 * with its HTTP status; 4xx keep a translated message, 5xx are logged and answer errors:server.
 */
export const errorsPlugin = fp(
  async (app) => {
    const translate = (request: FastifyRequest, key: string, params: Record<string, string | number> = {}): string => {
      // Errors raised before the i18n hook ran (e.g. a malformed URL) still answer in the caller's language.
      const t = request.t ?? app.i18n.getFixedT(toLocale(request.headers['accept-language']));
      const values: Record<string, string | number> = {};
      // A parameter that is itself a message key (an entity's name) is said in the same language.
      for (const [k, v] of Object.entries(params)) values[k] = typeof v === 'string' && I18N_KEY.test(v) && app.i18n.exists(v) ? t(v) : v;
      return t(key, values);
    };
    const send = (reply: FastifyReply, status: number, msg: string, field?: string, data?: Record<string, string>) =>
      reply.status(status).send(field ? { ...fail(status, msg), data: { ...data, field } } : fail(status, msg));

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (isAppError(error)) return send(reply, error.status, translate(request, error.i18nKey, error.params), error.field, error.data);

      if (hasZodFastifySchemaValidationErrors(error)) {
        const first = error.validation[0];
        const message = first?.message ?? '';
        // '/name' or '/semesters/0/startDate' → 'name', 'semesters.0.startDate': the field the form marks.
        const field = first?.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : undefined;
        if (I18N_KEY.test(message) && !GENERIC_MESSAGES.has(message) && app.i18n.exists(message)) return send(reply, 400, translate(request, message), field);
        // No message of its own (or only zod's generic fallback): the generic one, naming the field so the person knows what to correct.
        return send(reply, 400, field ? translate(request, ERR.badField, { field }) : translate(request, ERR.badRequest), field);
      }

      // Two saves raced past a uniqueness check (the same serial number, account, code): the later one is told to
      // reload, like a stale save, instead of a server error.
      if (isUniqueViolation(error)) return send(reply, 409, translate(request, ERR.duplicateRace));

      const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status >= 400 && status < 500) {
        // Body parse errors, unsupported media types and the like: the caller's fault, one plain message.
        return send(reply, status, translate(request, STATUS_KEY[status] ?? ERR.badRequest));
      }
      request.log.error({ err: error }, 'request failed');
      return send(reply, 500, translate(request, ERR.server));
    });

    app.setNotFoundHandler((request, reply) => send(reply, 404, translate(request, ERR.notFound)));
  },
  { name: 'tiyu-errors', dependencies: ['tiyu-i18n'] },
);
