import { and, asc, eq, isNull } from 'drizzle-orm';
import { TODO_PER_KIND_MAX, type TodoItem, type TodoKind, type TodoSummary } from '@/domain/messages/messages';
import { canDo, pageAccess } from '@/domain/menus/access';
import { familyOfOrgType, getCatalogEntry, type ButtonAction } from '@/domain/menus/catalog';
import type { Page } from '@/domain/api';
import type { DbOrTx } from '../../db/client';
import { meetEntries, meets } from '../../db/schema/meets';
import { messages } from '../../db/schema/messages';
import type { Actor } from '../../plugins/tenant';
import { entryPage } from '../meets/entry.service';
import { exemptionPage } from '../exemptions/exemptions.service';
import { casePage } from '../warnings/cases.service';
import { planPage } from '../test-plans/test-plans-manage.service';
import { homeworkPage } from '../homework/homework.service';
import { messagePage } from './messages.service';
import { inboxPage } from '../notices/notices.service';

/**
 * What waits for the signed-in user (docs/product-rules.md#to-dos-and-messages). Each count is the total of the list it
 * opens, taken from that list's own query with the same filter (page size 1), so the number and the list cannot
 * disagree; and a count is only computed for a page (and button) the role holds, so a page the user may not open
 * never shows and never costs a query.
 */

/** The role holds this button of the page (or the page itself); a page the family lacks is no. */
function holds(actor: Actor, key: string, action: ButtonAction | 'view' | 'always'): boolean {
  if (getCatalogEntry(key) === undefined) return false;
  // The personal centre is every signed-in user's (docs/product-rules.md#screens-and-routes).
  return action === 'always' || canDo(actor.permissions, key, action);
}

const ONE = { current: 1, size: 1 } as const;
const totalOf = async (page: Promise<Page<unknown>>) => (await page).total;
const withQuery = (path: string, filter: Record<string, string>) => `${path}?${new URLSearchParams(filter).toString()}`;

interface Source {
  kind: TodoKind;
  /** The items of this kind the actor may see (none when the page or button is not held). */
  items(db: DbOrTx, actor: Actor, now: Date): Promise<TodoItem[]>;
}

/** A list page and filter that makes one item: its total under the filter. */
function listItem(kind: TodoKind, key: (actor: Actor) => string | null, action: ButtonAction | 'view' | 'always', filter: Record<string, string>, count: (db: DbOrTx, actor: Actor, now: Date) => Promise<number>): Source {
  return {
    kind,
    async items(db, actor, now) {
      const pageKey = key(actor);
      if (!pageKey || !holds(actor, pageKey, action)) return [];
      const n = await count(db, actor, now);
      return n > 0 ? [{ kind, count: n, pageKey, to: withQuery(pageAccess(pageKey).paths.list, filter) }] : [];
    },
  };
}

const familyKey = (page: string) => (actor: Actor) => {
  const family = familyOfOrgType(actor.orgType);
  return family ? `${family}.${page}` : null;
};

const SIGN_UP = 'single.sportsMeet.signUp';

const SOURCES: readonly Source[] = [
  // Sign-ups awaiting audit: one item per meet of the organisation with pending entries (its sign-up list, pending).
  {
    kind: 'signUpReview',
    async items(db, actor) {
      if (!holds(actor, SIGN_UP, 'audit')) return [];
      const waiting = await db
        .selectDistinct({ id: meets.id, name: meets.name, startDate: meets.startDate })
        .from(meets)
        .innerJoin(meetEntries, and(eq(meetEntries.meetId, meets.id), eq(meetEntries.status, 'pending')))
        .where(eq(meets.orgId, actor.tenantOrgId))
        .orderBy(asc(meets.startDate), asc(meets.id))
        .limit(TODO_PER_KIND_MAX);
      const out: TodoItem[] = [];
      for (const meet of waiting) {
        // The actor's classes only, as the list shows them.
        const n = await totalOf(entryPage(db, actor, meet.id, { ...ONE, status: 'pending', name: '' }));
        if (n > 0) out.push({ kind: 'signUpReview', count: n, pageKey: SIGN_UP, subject: meet.name, to: withQuery(pageAccess(SIGN_UP).paths.route('detail', meet.id), { status: 'pending' }) });
      }
      return out;
    },
  },
  // Homework of the teacher's classes (the school's, for an administrator) with videos waiting for a verdict; reviewing is
  // the homework page's edit button.
  listItem('homeworkVideos', familyKey('homework.homeworkManagement'), 'edit', { review: 'pending' }, (db, actor, now) =>
    totalOf(homeworkPage(db, { actor, subtree: false }, { ...ONE, review: 'pending', name: '' }, now)),
  ),
  // Ended plans whose reports are not released to the families yet.
  listItem('reportRelease', familyKey('test.testManage'), 'release', { status: 'ended', released: 'no' }, (db, actor, now) =>
    totalOf(planPage(db, { tenantOrgId: actor.tenantOrgId, orgType: actor.orgType, userId: actor.userId, now }, { ...ONE, status: 'ended', released: 'no', bin: false, name: '' })),
  ),
  listItem('exemptionReview', familyKey('test.exemption'), 'audit', { status: 'pending' }, (db, actor) => totalOf(exemptionPage(db, actor, { ...ONE, status: 'pending', keyword: '' }))),
  listItem('openCases', familyKey('test.warning'), 'followUp', { view: 'cases', status: 'open' }, (db, actor) => totalOf(casePage(db, actor, { ...ONE, status: 'open' }))),
  // Notices addressed to this user today and not opened yet (the message centre's notices tab, its first).
  listItem('unreadNotices', () => 'personal.myInfo.messages', 'always', { unread: 'true' }, (db, actor, now) =>
    totalOf(inboxPage(db, actor, { ...ONE, unread: true, title: '' }, now)),
  ),
  // Jobs of this user that finished with failures, not yet read (the messages page, personal centre: always open).
  listItem('jobFailures', () => 'personal.myInfo.messages', 'always', { tab: 'jobs', read: 'unread', outcome: 'failures' }, (db, actor) =>
    totalOf(messagePage(db, actor.userId, { ...ONE, read: 'unread', outcome: 'failures' }, () => '')),
  ),
];

export async function todoSummary(db: DbOrTx, actor: Actor, now: Date): Promise<TodoSummary> {
  const items: TodoItem[] = [];
  for (const source of SOURCES) items.push(...(await source.items(db, actor, now)));
  const unread = await db.$count(messages, and(eq(messages.userId, actor.userId), isNull(messages.readAt)));
  return { items, total: items.reduce((sum, i) => sum + i.count, 0), unread };
}
