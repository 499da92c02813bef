import { count } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Page, PageQuery } from '@/domain/api';
import type { DbOrTx } from '../db/client';

/**
 * One page of a query and the total count of its rows, in one call (sizes from PAGE_SIZES, checked by the list-query
 * schema). Pass the query ordered and `.$dynamic()`: `paginate(db, db.select(…).from(…).where(…).orderBy(…).$dynamic(), q)`.
 * The count runs over the same query as a subquery, so joins and filters can never disagree between count and rows.
 */
export async function paginate<Q extends PgSelect>(db: DbOrTx, query: Q, q: PageQuery): Promise<Page<Awaited<Q>[number]>> {
  // The subquery's SQL is taken before limit/offset are set on the (mutable) dynamic query.
  const counted = db.select({ total: count() }).from(query.as('paginated') as never);
  const [[{ total }], records] = await Promise.all([counted, query.limit(q.size).offset((q.current - 1) * q.size)]);
  return { records: records as Awaited<Q>[number][], total, current: q.current, size: q.size };
}
