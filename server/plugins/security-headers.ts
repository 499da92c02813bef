import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * What the built console needs and nothing more: its own scripts only (no inline script, no eval: zod runs jitless);
 * inline style attributes (Radix positions popovers and ECharts sizes its canvas through `style`); images, media and
 * fonts from itself, data: and blob: URLs (previews of a picked file before upload). The wall display is the same SPA.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} as const;

/**
 * Headers of every answer through `@fastify/helmet`: the CSP above, no framing (`frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`), `nosniff`, `Referrer-Policy: same-origin`, cross-origin opener/resource isolation, HSTS
 * (ignored by browsers over plain http, which intranet installs use; no `includeSubDomains`, the school's other hosts
 * are not ours) and no `upgrade-insecure-requests` (it would break those installs). A route may set its own CSP
 * (the file store's sandbox) after this hook. No API answer (student and staff personal data, tokens) is kept by a
 * browser or proxy cache unless its route says so. The console sets no cookies: its token travels in the
 * Authorization header (docs/decisions/024-request-hardening.md).
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: { ...CSP_DIRECTIVES } },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
      strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
      crossOriginEmbedderPolicy: false,
    });
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });
  },
  { name: 'tiyu-security-headers' },
);
