import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/**
 * Tenancy (docs/product-rules.md#tenancy): a record is visible to an organisation when it belongs to it or, where the
 * screen says so, to an organisation below it. Never a sibling's.
 */

/** The recursive query of an organisation and every organisation below it (ids). */
function subtreeQuery(orgId: string): SQL {
  return sql`with recursive subtree(id) as (
      select id from orgs where id = ${orgId}
      union all
      select o.id from orgs o join subtree s on o.parent_id = s.id
    ) select id from subtree`;
}

/** Ids of the organisation and its subtree. */
export async function orgSubtree(db: DbOrTx, orgId: string): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(subtreeQuery(orgId));
  return rows.map((r) => r.id);
}

/** SQL condition: `column` is the organisation or one below it. */
export function inOrgSubtree(column: SQLWrapper, orgId: string): SQL {
  return sql`${column} in (${subtreeQuery(orgId)})`;
}
