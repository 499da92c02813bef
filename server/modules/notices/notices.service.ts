import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import { richTextFileIds } from '@/domain/content/rich-text';
import { localDate } from '@/domain/dates';
import {
  audiencesFor,
  NOTICE_UNREAD_LIST_MAX,
  noticeState,
  type InboxNotice,
  type InboxQuery,
  type InboxRow,
  type NoticeAttachment,
  type NoticeDetail,
  type NoticeListQuery,
  type NoticeReceipts,
  type NoticeRow,
  type NoticeSave,
  type NoticeSchool,
} from '@/domain/notices/notices';
import type { DbOrTx, Tx } from '../../db/client';
import { memberships, users } from '../../db/schema/auth';
import { files } from '../../db/schema/files';
import { noticeOrgs, noticeReads, notices } from '../../db/schema/notices';
import { orgs } from '../../db/schema/orgs';
import { fieldError } from '../../lib/app-error';
import { isoInstant } from '../../lib/iso';
import type { AppIdentity } from '@/domain/activities/ingest';
import { parentStudents, parents, students } from '../../db/schema/school';
import { paginate } from '../../lib/paginate';
import { containsPattern } from '../../lib/query';
import { lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import { inOrgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';
import { assertOwnFiles } from '../content/content-files';
import { sanitizeRichText } from '../content/rich-text';

/** Notices (docs/product-rules.md#notices): the publisher's screens, the readers' inbox and the receipts. */

const SCHOOL_TYPES = [ORG_TYPE.k12, ORG_TYPE.university];
const isManagement = (actor: Actor) => actor.orgType === ORG_TYPE.management;

// Staff a notice reaches: enabled console accounts (memberships) of the organisations it reaches, once per person.
const audienceUsers = (noticeId: SQL | string) => sql`
  select distinct m.user_id from ${memberships} m
    join ${noticeOrgs} no on no.org_id = m.tenant_org_id
    join ${users} u on u.id = m.user_id
  where no.notice_id = ${noticeId} and m.enabled and u.enabled`;
const audienceSize = sql<number>`(select count(*) from (${audienceUsers(sql`${notices.id}`)}) a)`.mapWith(Number);
const readCount = sql<number>`(select count(*) from ${noticeReads} r where r.notice_id = ${notices.id} and r.user_id in (${audienceUsers(sql`${notices.id}`)}))`.mapWith(Number);
const orgCount = sql<number>`(select count(*) from ${noticeOrgs} no where no.notice_id = ${notices.id})`.mapWith(Number);

const rowColumns = {
  id: notices.id,
  title: notices.title,
  audience: notices.audience,
  orgCount,
  toParents: notices.toParents,
  pinned: notices.pinned,
  published: notices.published,
  showFrom: notices.showFrom,
  showUntil: notices.showUntil,
  readCount,
  audienceSize,
  updatedAt: notices.updatedAt,
  updatedByName: users.name,
  version: notices.version,
};
type Raw = Omit<NoticeRow, 'state' | 'updatedAt'> & { updatedAt: Date };
const toRow = (r: Raw, today: string): NoticeRow => ({ ...r, state: noticeState(r.published, r.showFrom, r.showUntil, today), updatedAt: isoInstant(r.updatedAt) });

const own = (actor: Actor) => eq(notices.orgId, actor.tenantOrgId);

/** SQL: the notice is shown to readers today (published, inside its window). */
const showing = (today: string) => and(eq(notices.published, true), sql`${notices.showFrom} <= ${today}`, or(isNull(notices.showUntil), sql`${notices.showUntil} >= ${today}`));
const stateFilter = (state: NoticeListQuery['state'], today: string): SQL | undefined => {
  switch (state) {
    case 'draft':
      return eq(notices.published, false);
    case 'scheduled':
      return and(eq(notices.published, true), sql`${notices.showFrom} > ${today}`);
    case 'ended':
      return and(eq(notices.published, true), sql`${notices.showUntil} < ${today}`);
    case 'showing':
      return showing(today);
    default:
      return undefined;
  }
};

/** The publisher's notices: pinned first, then last changed first. */
export async function noticePage(db: DbOrTx, actor: Actor, q: NoticeListQuery, now: Date): Promise<Page<NoticeRow>> {
  const today = localDate(now);
  const where = and(own(actor), q.title ? ilike(notices.title, containsPattern(q.title)) : undefined, stateFilter(q.state, today));
  const page = await paginate(
    db,
    db.select(rowColumns).from(notices).leftJoin(users, eq(users.id, notices.updatedBy)).where(where).orderBy(desc(notices.pinned), desc(notices.updatedAt), desc(notices.id)).$dynamic(),
    q,
  );
  return { ...page, records: page.records.map((r) => toRow(r, today)) };
}

async function attachmentsOf(db: DbOrTx, ids: readonly string[]): Promise<NoticeAttachment[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: files.id, name: files.name, size: files.size, mime: files.mime }).from(files).where(and(inArray(files.id, [...ids]), isNull(files.deletedAt)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** One notice of the publisher, its text sanitised again as it is answered (as the wiki's). */
export async function noticeById(db: DbOrTx, actor: Actor, id: string, now: Date): Promise<NoticeDetail> {
  const [row] = await db
    .select({ ...rowColumns, content: notices.content, attachmentIds: notices.attachmentIds, publisherName: orgs.name })
    .from(notices)
    .innerJoin(orgs, eq(orgs.id, notices.orgId))
    .leftJoin(users, eq(users.id, notices.updatedBy))
    .where(and(own(actor), eq(notices.id, id)))
    .limit(1);
  if (!row) throw notFound();
  const schools = row.audience === 'chosenSchools' ? await db.select({ orgId: noticeOrgs.orgId }).from(noticeOrgs).where(eq(noticeOrgs.noticeId, id)) : [];
  const { content, attachmentIds, publisherName, ...rest } = row;
  return {
    ...toRow(rest, localDate(now)),
    content: sanitizeRichText(content),
    attachments: await attachmentsOf(db, attachmentIds),
    schoolIds: schools.map((s) => s.orgId),
    publisherName,
  };
}

/** The schools below a management organisation: whom its notices may reach. */
export async function noticeSchools(db: DbOrTx, actor: Actor): Promise<NoticeSchool[]> {
  if (!isManagement(actor)) return [];
  return db
    .select({ id: orgs.id, name: orgs.name })
    .from(orgs)
    .where(and(inOrgSubtree(orgs.id, actor.tenantOrgId), inArray(orgs.type, SCHOOL_TYPES), eq(orgs.enabled, true)))
    .orderBy(asc(orgs.code), asc(orgs.name));
}

/** The organisations a save reaches; chosen schools must be the publisher's (else 400 on the field). */
async function reachedOrgs(tx: Tx, actor: Actor, body: NoticeSave): Promise<string[]> {
  if (!audiencesFor(isManagement(actor)).includes(body.audience)) throw fieldError('audience', 'notices:validation.audienceRequired');
  if (body.audience === 'staff') return [actor.tenantOrgId];
  const schools = (await noticeSchools(tx, actor)).map((s) => s.id);
  if (body.audience === 'allSchools') return schools;
  const mine = new Set(schools);
  const chosen = [...new Set(body.schoolIds)];
  if (chosen.some((id) => !mine.has(id))) throw fieldError('schoolIds', 'notices:validation.schoolsUnknown');
  return chosen;
}

async function prepare(tx: Tx, actor: Actor, body: NoticeSave) {
  const content = sanitizeRichText(body.content);
  const attachmentIds = [...new Set(body.attachmentIds)];
  await assertOwnFiles(tx, actor, 'attachmentIds', attachmentIds, ['attachment']);
  await assertOwnFiles(tx, actor, 'content', richTextFileIds(content), ['image', 'video']);
  return {
    values: { title: body.title, content, audience: body.audience, toParents: body.audience === 'staff' && body.toParents, attachmentIds, pinned: body.pinned, published: body.published, showFrom: body.showFrom, showUntil: body.showUntil },
    reached: await reachedOrgs(tx, actor, body),
  };
}

async function writeReached(tx: Tx, noticeId: string, reached: readonly string[]) {
  await tx.delete(noticeOrgs).where(eq(noticeOrgs.noticeId, noticeId));
  if (reached.length > 0) await tx.insert(noticeOrgs).values(reached.map((orgId) => ({ noticeId, orgId })));
}

export async function createNotice(tx: Tx, actor: Actor, body: NoticeSave, now: Date): Promise<NoticeDetail> {
  const { values, reached } = await prepare(tx, actor, body);
  const [row] = await tx
    .insert(notices)
    .values({ ...values, orgId: actor.tenantOrgId, publishedAt: body.published ? now : null, createdBy: actor.userId, updatedBy: actor.userId, createdAt: now, updatedAt: now })
    .returning({ id: notices.id });
  await writeReached(tx, row.id, reached);
  return noticeById(tx, actor, row.id, now);
}

/** A stale form (`version`) is refused (409); read receipts stay with the notice. */
export async function updateNotice(tx: Tx, actor: Actor, id: string, body: NoticeSave, now: Date): Promise<Change<NoticeDetail>> {
  const locked = await lockVersion(tx, notices, id, own(actor), body.version ?? -1);
  const before = await noticeById(tx, actor, id, now);
  const { values, reached } = await prepare(tx, actor, body);
  const publishedAt = body.published ? ((locked.publishedAt as Date | null) ?? now) : null;
  await tx
    .update(notices)
    .set({ ...values, publishedAt, updatedBy: actor.userId, updatedAt: now, version: nextVersion(notices.version) })
    .where(eq(notices.id, id));
  await writeReached(tx, id, reached);
  return { before, after: await noticeById(tx, actor, id, now) };
}

export async function deleteNotice(tx: Tx, actor: Actor, id: string, now: Date): Promise<NoticeDetail> {
  const before = await noticeById(tx, actor, id, now);
  await tx.delete(notices).where(eq(notices.id, id));
  return before;
}

/**
 * Receipts of the publisher's own notice (another organisation's: 404): per organisation reached, how many of its
 * staff there are and have read it; who has read it, and who not yet (at most NOTICE_UNREAD_LIST_MAX named).
 */
export async function noticeReceipts(db: DbOrTx, actor: Actor, id: string): Promise<NoticeReceipts> {
  const [notice] = await db.select({ id: notices.id, toParents: notices.toParents }).from(notices).where(and(own(actor), eq(notices.id, id)));
  if (!notice) throw notFound();
  // Each staff member of a reached organisation, with the time they read the notice (null: not yet).
  const people = sql`
    select distinct on (m.user_id, no.org_id) m.user_id, no.org_id, u.name, u.account_num, o.name as org_name, r.read_at
    from ${noticeOrgs} no
      join ${orgs} o on o.id = no.org_id
      join ${memberships} m on m.tenant_org_id = no.org_id and m.enabled
      join ${users} u on u.id = m.user_id and u.enabled
      left join ${noticeReads} r on r.notice_id = no.notice_id and r.user_id = m.user_id
    where no.notice_id = ${id}`;
  const { rows: perOrg } = await db.execute<{ org_id: string; name: string; audience: number; read: number }>(sql`
    select no.org_id, o.name, coalesce(p.audience, 0)::int as audience, coalesce(p.read, 0)::int as read
    from ${noticeOrgs} no join ${orgs} o on o.id = no.org_id
      left join (select org_id, count(*) as audience, count(read_at) as read from (${people}) x group by org_id) p on p.org_id = no.org_id
    where no.notice_id = ${id}
    order by o.code, o.name`);
  const { rows: unread } = await db.execute<{ user_id: string; name: string; account_num: string; org_name: string }>(
    sql`select user_id, name, account_num, org_name from (${people}) x where read_at is null order by org_name, name, user_id limit ${NOTICE_UNREAD_LIST_MAX}`,
  );
  const { rows: read } = await db.execute<{ user_id: string; name: string; org_name: string; read_at: Date | string }>(
    sql`select user_id, name, org_name, read_at from (${people}) x where read_at is not null order by read_at desc, user_id`,
  );
  // A person on the staff of two reached schools is listed under each, and counted once in the total.
  const { rows: total } = await db.execute<{ n: number }>(sql`select count(distinct user_id)::int as n from (${people}) x where read_at is null`);
  return {
    orgs: perOrg.map((r) => ({ orgId: r.org_id, name: r.name, audienceSize: Number(r.audience), readCount: Number(r.read) })),
    unread: unread.map((r) => ({ userId: r.user_id, name: r.name, account: r.account_num, orgName: r.org_name })),
    unreadTotal: Number(total[0]?.n ?? 0),
    read: read.map((r) => ({ userId: r.user_id, name: r.name, orgName: r.org_name, readAt: isoInstant(r.read_at) })),
    parents: notice.toParents ? await parentReceipts(db, id) : null,
  };
}

// Parents a `toParents` notice reaches: enabled app accounts of the parents of on-roll students of the reached schools
// (the students appIdentity counts as a parent's children), once per person.
const parentAudience = (noticeId: string) => sql`
  select distinct p.user_id from ${parents} p
    join ${parentStudents} ps on ps.parent_id = p.id
    join ${students} s on s.id = ps.student_id and s.enabled and s.status = 'studying'
    join ${noticeOrgs} no on no.org_id = s.org_id
    join ${users} u on u.id = p.user_id and u.enabled
  where no.notice_id = ${noticeId}`;

/** The parents' group of a notice's receipts: how many parents it reaches and how many of them have read it. */
async function parentReceipts(db: DbOrTx, id: string): Promise<{ audienceSize: number; readCount: number }> {
  const { rows } = await db.execute<{ audience: number; read: number }>(sql`
    select count(*)::int as audience, count(r.user_id)::int as read
    from (${parentAudience(id)}) a left join ${noticeReads} r on r.notice_id = ${id} and r.user_id = a.user_id`);
  return { audienceSize: Number(rows[0]?.audience ?? 0), readCount: Number(rows[0]?.read ?? 0) };
}

// ---- The readers' side: what a reader is sent and shown today. A member of staff reads as its organisation; a parent
// (the app) as the schools of its children, and only the notices also addressed to parents.

/** Who reads: the account, the organisations it reads for, and whether it reads as a parent. */
export interface NoticeReader {
  userId: string;
  orgIds: string[];
  parent: boolean;
}
export const staffReader = (actor: Actor): NoticeReader => ({ userId: actor.userId, orgIds: [actor.tenantOrgId], parent: false });
/** A member of staff may be passed as its Actor (other modules count its inbox so). */
const asReader = (who: Actor | NoticeReader): NoticeReader => ('orgIds' in who ? who : staffReader(who));
/** A parent of the app reads for the schools of its children (a student's own account reads nothing here). */
export const parentReader = (identity: AppIdentity): NoticeReader => ({
  userId: identity.userId,
  orgIds: [...new Set(identity.students.filter((s) => s.relation !== null).map((s) => s.orgId))],
  parent: true,
});

const readBy = (reader: NoticeReader) => sql<boolean>`exists (select 1 from ${noticeReads} r where r.notice_id = ${notices.id} and r.user_id = ${reader.userId})`;
const addressedTo = (reader: NoticeReader, today: string) =>
  reader.orgIds.length === 0
    ? sql`false`
    : and(
        showing(today),
        reader.parent ? eq(notices.toParents, true) : undefined,
        sql`exists (select 1 from ${noticeOrgs} no where no.notice_id = ${notices.id} and no.org_id in ${reader.orgIds})`,
      );

const inboxColumns = (reader: NoticeReader) => ({
  id: notices.id,
  title: notices.title,
  publisherName: orgs.name,
  pinned: notices.pinned,
  showFrom: notices.showFrom,
  publishedAt: notices.publishedAt,
  read: readBy(reader),
});
const toInboxRow = <T extends { publishedAt: Date | null }>(r: T) => ({ ...r, publishedAt: isoInstant(r.publishedAt) });

/** The notices the reader may read today: pinned first, then the newest window first. */
export async function inboxPage(db: DbOrTx, who: Actor | NoticeReader, q: InboxQuery, now: Date): Promise<Page<InboxRow>> {
  const reader = asReader(who);
  const where = and(
    addressedTo(reader, localDate(now)),
    q.title ? ilike(notices.title, containsPattern(q.title)) : undefined,
    q.unread ? sql`not ${readBy(reader)}` : undefined,
  );
  const page = await paginate(
    db,
    db.select(inboxColumns(reader)).from(notices).innerJoin(orgs, eq(orgs.id, notices.orgId)).where(where).orderBy(desc(notices.pinned), desc(notices.showFrom), desc(notices.publishedAt), desc(notices.id)).$dynamic(),
    q,
  );
  return { ...page, records: page.records.map(toInboxRow) };
}

/** Notices the reader may read today and has not opened: the header bell's count. */
export async function unreadCount(db: DbOrTx, who: Actor | NoticeReader, now: Date): Promise<{ unread: number }> {
  const reader = asReader(who);
  const unread = await db.$count(notices, and(addressedTo(reader, localDate(now)), sql`not ${readBy(reader)}`));
  return { unread };
}

/** One notice as its reader sees it; a notice not addressed to the reader, a draft or one outside its window: 404. */
export async function inboxNotice(db: DbOrTx, who: Actor | NoticeReader, id: string, now: Date): Promise<InboxNotice & { fileIds: string[] }> {
  const reader = asReader(who);
  const [row] = await db
    .select({ ...inboxColumns(reader), content: notices.content, attachmentIds: notices.attachmentIds })
    .from(notices)
    .innerJoin(orgs, eq(orgs.id, notices.orgId))
    .where(and(eq(notices.id, id), addressedTo(reader, localDate(now))))
    .limit(1);
  if (!row) throw notFound();
  const { attachmentIds, content, ...rest } = row;
  const safe = sanitizeRichText(content);
  return { ...toInboxRow(rest), content: safe, attachments: await attachmentsOf(db, attachmentIds), fileIds: [...attachmentIds, ...richTextFileIds(safe)] };
}

/**
 * Marks the notice read by the reader, once: the first open counts, later ones change nothing. The read is kept with
 * the organisation the reader read it as (a parent: the first of its children's schools the notice reached).
 */
export async function markRead(tx: Tx, who: Actor | NoticeReader, id: string, now: Date): Promise<{ read: boolean; first: boolean; orgId: string; title: string }> {
  const reader = asReader(who);
  const notice = await inboxNotice(tx, reader, id, now);
  const [reached] = await tx
    .select({ orgId: noticeOrgs.orgId })
    .from(noticeOrgs)
    .where(and(eq(noticeOrgs.noticeId, id), inArray(noticeOrgs.orgId, reader.orgIds)))
    .orderBy(asc(noticeOrgs.orgId))
    .limit(1);
  const made = await tx.insert(noticeReads).values({ noticeId: id, userId: reader.userId, orgId: reached.orgId, readAt: now }).onConflictDoNothing().returning({ noticeId: noticeReads.noticeId });
  return { read: true, first: made.length > 0, orgId: reached.orgId, title: notice.title };
}

/** A file of a notice the reader may read (an attachment or a picture of its text), or 404. */
export async function inboxFile(db: DbOrTx, who: Actor | NoticeReader, id: string, fileId: string, now: Date) {
  const reader = asReader(who);
  const notice = await inboxNotice(db, reader, id, now);
  if (!notice.fileIds.includes(fileId)) throw notFound();
  const [row] = await db.select().from(files).where(and(eq(files.id, fileId), isNull(files.deletedAt))).limit(1);
  if (!row) throw notFound();
  return row;
}
