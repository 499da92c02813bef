/**
 * The floor of tests/bench/startup.ts: what any server on this database must do to serve — load PGlite and Fastify,
 * open the same data directory (and read one row), listen, answer. Run as `node startup-floor.mjs <dir> <port>`: plain
 * JavaScript without a loader, as `npm start` runs the built server (dist/server).
 */
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';

const [dir, port] = process.argv.slice(2);
const db = new PGlite(dir);
await db.waitReady;
await db.query('select 1');
const app = Fastify();
app.get('/', async () => ({ ok: true }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
const stop = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
