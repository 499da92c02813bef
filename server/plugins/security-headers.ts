import fp from 'fastify-plugin';

/**
 * What the built console needs and nothing more: its own scripts only; inline style attributes (Radix positions
 * popovers and ECharts sizes its canvas through `style`); images and fonts from itself, data: and blob: URLs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of every answer: the console page may not be framed, sniffed or leak its URL to other sites, and no API
 * answer (student and staff personal data, tokens) is kept by a browser or proxy cache unless its route says so.
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'same-origin');
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });
  },
  { name: 'tiyu-security-headers' },
);
