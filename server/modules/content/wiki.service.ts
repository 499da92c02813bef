import { and, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { richTextFileIds, richTextLength } from '@/domain/content/rich-text';
import type { WikiEntry, WikiListQuery, WikiRow, WikiSave } from '@/domain/content/wiki';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/auth';
import { wikiEntries } from '../../db/schema/content';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { assertOwnFiles } from './content-files';
import { sanitizeRichText } from './rich-text';
import { isoInstant } from '../../lib/iso';


const rowColumns = {
  id: wikiEntries.id,
  title: wikiEntries.title,
  category: wikiEntries.category,
  coverFileId: wikiEntries.coverFileId,
  published: wikiEntries.published,
  publishedAt: wikiEntries.publishedAt,
  textLength: wikiEntries.textLength,
  updatedAt: wikiEntries.updatedAt,
  updatedByName: users.name,
  version: wikiEntries.version,
};
type Raw = Omit<WikiRow, 'publishedAt' | 'updatedAt'> & { publishedAt: Date | null; updatedAt: Date };
const toRow = (r: Raw): WikiRow => ({ ...r, publishedAt: isoInstant(r.publishedAt), updatedAt: isoInstant(r.updatedAt) });

const own = (actor: Actor) => eq(wikiEntries.orgId, actor.tenantOrgId);
const select = (db: DbOrTx, where: SQL | undefined) =>
  db.select(rowColumns).from(wikiEntries).leftJoin(users, eq(users.id, wikiEntries.updatedBy)).where(where);

/** Entries of the tenant, last changed first. */
export async function wikiPage(db: DbOrTx, actor: Actor, q: WikiListQuery): Promise<Page<WikiRow>> {
  const where = and(
    own(actor),
    q.title ? ilike(wikiEntries.title, containsPattern(q.title)) : undefined,
    q.category ? eq(wikiEntries.category, q.category) : undefined,
    q.state ? eq(wikiEntries.published, q.state === 'published') : undefined,
  );
  const page = await paginate(db, select(db, where).orderBy(desc(wikiEntries.updatedAt), desc(wikiEntries.id)).$dynamic(), q);
  return { ...page, records: page.records.map(toRow) };
}

/** One entry with its text, sanitised again as it is answered (docs/product-rules.md#wiki). */
export async function wikiById(db: DbOrTx, actor: Actor, id: string): Promise<WikiEntry> {
  const [row] = await db
    .select({ ...rowColumns, content: wikiEntries.content })
    .from(wikiEntries)
    .leftJoin(users, eq(users.id, wikiEntries.updatedBy))
    .where(and(own(actor), eq(wikiEntries.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return { ...toRow(row), content: sanitizeRichText(row.content) };
}

/** Sanitises the text and checks that its images, videos and the cover are the tenant's files. */
async function prepare(tx: Tx, actor: Actor, body: WikiSave) {
  const content = sanitizeRichText(body.content);
  await assertOwnFiles(tx, actor, 'coverFileId', [body.coverFileId], ['cover']);
  await assertOwnFiles(tx, actor, 'content', richTextFileIds(content), ['image', 'video']);
  return { title: body.title, category: body.category, coverFileId: body.coverFileId ?? null, content, textLength: richTextLength(content) };
}

export async function createWiki(tx: Tx, actor: Actor, body: WikiSave, now: Date): Promise<WikiEntry> {
  const values = await prepare(tx, actor, body);
  const [row] = await tx
    .insert(wikiEntries)
    .values({ ...values, orgId: actor.tenantOrgId, published: body.published, publishedAt: body.published ? now : null, updatedBy: actor.userId, createdAt: now, updatedAt: now })
    .returning({ id: wikiEntries.id });
  return wikiById(tx, actor, row.id);
}

export async function updateWiki(tx: Tx, actor: Actor, id: string, body: WikiSave, now: Date): Promise<Change<WikiEntry>> {
  const locked = await lockVersion(tx, wikiEntries, id, own(actor), body.version ?? -1);
  const before = await wikiById(tx, actor, id);
  const values = await prepare(tx, actor, body);
  const publishedAt = body.published ? ((locked.publishedAt as Date | null) ?? now) : null;
  await tx
    .update(wikiEntries)
    .set({ ...values, published: body.published, publishedAt, updatedBy: actor.userId, updatedAt: now, version: nextVersion(wikiEntries.version) })
    .where(eq(wikiEntries.id, id));
  return { before, after: await wikiById(tx, actor, id) };
}

/** Publishes or takes back an entry (docs/product-rules.md#wiki). */
export async function publishWiki(tx: Tx, actor: Actor, id: string, published: boolean, version: number | undefined, now: Date): Promise<Change<WikiRow>> {
  const locked = await lockVersion(tx, wikiEntries, id, own(actor), version ?? -1);
  const publishedAt = published ? ((locked.publishedAt as Date | null) ?? now) : null;
  await tx
    .update(wikiEntries)
    .set({ published, publishedAt, updatedBy: actor.userId, updatedAt: now, version: nextVersion(wikiEntries.version) })
    .where(eq(wikiEntries.id, id));
  const [after] = await select(tx, eq(wikiEntries.id, id));
  return { before: { published: locked.published, version: locked.version }, after: toRow(after) };
}

export async function deleteWiki(tx: Tx, actor: Actor, id: string): Promise<WikiRow> {
  const [before] = await select(tx, and(own(actor), eq(wikiEntries.id, id)));
  if (!before) throw notFound();
  await tx.delete(wikiEntries).where(eq(wikiEntries.id, id));
  return toRow(before);
}
