// Loaded before the app (index.html): zod then parses without compiling code through `new Function`, which the
// console's Content-Security-Policy (script-src 'self') forbids and Chromium would report as a violation.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
