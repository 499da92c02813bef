import { parse, PGlite, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';
import { sha256Hex } from '../lib/password';

/** Prepared statements kept per database; past this the least recently used is closed (one per distinct text). */
const MAX_STATEMENTS = 256;

/** PostgreSQL's "cached plan must not change result type": a table under a kept statement changed its columns. */
const PLAN_CHANGED = '0A000';

const { serialize } = protocol;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * PGlite whose top-level `query` runs every statement as a named (prepared) statement, prepared once per text: what
 * node-postgres does for a named query and JDBC drivers do by themselves. `PGlite.query` parses, describes and plans
 * the text on every call and crosses into WebAssembly six times; here a statement seen before is one bind-describe-
 * execute-sync message, and PostgreSQL keeps its parse tree and, after five runs, chooses between a generic and a
 * custom plan itself (plan_cache_mode auto). Planning is a large share of a short statement on PGlite
 * (docs/decisions/029-pglite-statements-and-request-gate.md).
 *
 * Everything else is `PGlite.query`'s contract: the same locks (a top-level statement waits for an open transaction),
 * parameter serialisers, result parsers and row modes, errors carrying the query, and the file system synced after.
 * Statements inside `transaction()`, COPY through `/dev/blob`, and queries that give their own parameter types run
 * through `PGlite.query` unchanged.
 */
export class PreparingPGlite extends PGlite {
  /** Statement name → its parameter type ids, least recently used first. */
  readonly #statements = new Map<string, number[]>();

  override async query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (options?.blob || options?.paramTypes || text.includes('/dev/blob')) return super.query<T>(text, params, options);
    await this._checkReady();
    return this._runExclusiveTransaction(() =>
      this._runExclusiveQuery(async () => {
        let results: Results<T>;
        try {
          results = await this.#run<T>(text, params, options);
        } catch (err) {
          throw Object.assign(err as object, { query: text, params, queryOptions: options });
        }
        await this.syncToFs();
        return results;
      }),
    );
  }

  async #run<T>(text: string, params: unknown[], options: QueryOptions | undefined, retry = true): Promise<Results<T>> {
    const name = `q_${sha256Hex(text).slice(0, 40)}`;
    let types = this.#statements.get(name);
    if (types) {
      this.#statements.delete(name);
    } else {
      if (this.#statements.size >= MAX_STATEMENTS) await this.#close(this.#statements.keys().next().value!);
      const described = await this.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
        syncToFs: false,
      });
      types = parse.parseDescribeStatementResults(described.messages);
    }
    this.#statements.set(name, types);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = options?.serializers?.[types[i]] ?? this.serializers[types[i]];
      return serializer ? serializer(value) : String(value);
    });
    try {
      const { messages } = await this.execProtocol(
        concat([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
      return parse.parseResults(messages, this.parsers, options)[0] as Results<T>;
    } catch (err) {
      if (!retry || (err as { code?: string }).code !== PLAN_CHANGED) throw err;
      await this.#close(name);
      return this.#run<T>(text, params, options, false);
    }
  }

  async #close(name: string): Promise<void> {
    this.#statements.delete(name);
    await this.execProtocol(concat([serialize.close({ type: 'S', name }), serialize.sync()]), { syncToFs: false });
  }
}
