/**
 * The kit contract (server/lib/resource.ts registerResource, server/lib/action.ts resourceAction) as one suite over
 * every declaration the app makes: paging sizes, 404 for another organisation's row, 403 without the button, 409 for a
 * stale save, 409 for a delete with dependants, and an audit row per write. A new resource fails the suite until it has
 * a row in FIXTURES; a new write action with a body, until it has a sample body in ACTION_BODIES.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { pageAccess, type SchoolFamily } from '@/domain/menus/access';
import type { ButtonAction } from '@/domain/menus/catalog';
import { WIKI_CATEGORIES } from '@/domain/content/wiki';
import { auditLogs } from '../../server/db/schema/audit';
import { membershipRoles, memberships, menus, roleMenus, users } from '../../server/db/schema/auth';
import type { Access, DeclaredAction } from '../../server/lib/action';
import { declaredLinked, type DeclaredLinked } from '../../server/lib/linked';
import { declaredActions, declaredResources, type DeclaredResource } from '../../server/lib/resource';
import { createTestApp, type TestApp } from '../support/server-app';
import { multipartBody } from './physique-results/physique-fixtures';

type Body = Record<string, unknown>;
interface Ctx {
  t: TestApp;
  /** The first row id of a list, read as `account` (`key` defaults to the resource's own page). */
  firstId(account: string, key: string, query?: string): Promise<string>;
}

interface Fixture {
  /** The account acting on the resource (an administrator holding every button of the page). */
  as: string;
  /**
   * Another organisation: `intruder` acts on this page against a row `owner` lists on page `key` (the demo's second
   * school holds few rows, so it is the intruder into the first school's rows).
   */
  other?: { owner: string; key: string; intruder: string };
  /** Why there is no other organisation to try (the demo has one district). */
  noOther?: string;
  /** Why the demo has no row of this page for `as` (and the kit cannot create one), so row checks have nothing to act on. */
  noRows?: string;
  /** Extra query of the list (filters it requires). */
  listQuery?: string;
  /** A valid create body (fresh values each call: codes are unique). */
  create?: (ctx: Ctx) => Promise<Body>;
  /** The update body from a row's detail, when the detail does not validate as one as it is. */
  update?: (detail: Body) => Body;
  /** A row of the acting organisation that other rows depend on: its delete answers 409. */
  inUse?: (ctx: Ctx) => Promise<string>;
}

let n = 0;
const uniq = () => ++n;

const admin = { as: 'district01', noOther: 'the demo has one district: its rows have no second tenant to be refused to' };
const k12 = (key: string) => ({ as: 'school01', other: { owner: 'school01', key, intruder: 'school02' } });
/** A university page's other-tenant row comes from the K12 school (the demo has one university). */
const gx = (k12Key: string) => ({ as: 'college01', other: { owner: 'school01', key: k12Key, intruder: 'college01' } });
/** Details carry null where the save schema wants '' (blank optional text). */
const blanks = (key: string) => (detail: Body): Body =>
  Object.fromEntries(Object.entries(updateBody(key, {} as Fixture, detail)).map(([k, v]) => [k, v === null ? '' : v]));
const semester = (s: { startDate: string; endDate: string; breakStart: string | null; breakEnd: string | null }) => ({
  startDate: s.startDate,
  endDate: s.endDate,
  breakStart: s.breakStart ?? '',
  breakEnd: s.breakEnd ?? '',
});
/** A school year's detail lists its semesters; the save names them autumn (13) and spring (11). */
const schoolYearBody = (d: Body): Body => {
  const sems = d.semesters as (Parameters<typeof semester>[0] & { code: number })[];
  return { academicYear: d.academicYear, autumn: semester(sems.find((s) => s.code === 13)!), spring: semester(sems.find((s) => s.code === 11)!), version: d.version };
};

const grade = async (c: Ctx, family: SchoolFamily) => c.firstId(family === 'k12' ? 'school01' : 'college01', `${family}.org.grade`);

/** A station body for the K12 demo's current plan, each call another item (an item belongs to one station of a plan). */
const STATION_ITEMS = ['vitalCapacity', 'rope1min', 'sitUp1min', 'pullUp', 'run1000m', 'run800m', 'shuttle50x8'];
const stationBody = async (c: Ctx) => {
  const plans = (await c.t.as('school01').get('/api/busi/web/k12/physiqueManage/testDay/plans')).body.data as { id: string }[];
  return { planId: plans[0].id, name: `契约站${uniq()}`, items: [STATION_ITEMS[n % STATION_ITEMS.length]], venueId: '', deviceIds: [], teacherIds: [], note: '' };
};

/** A request for a studying student of the account's school with no request yet, in the current school year. */
const exemptionBody = async (c: Ctx, account: string): Promise<Body> => {
  const { rows } = await c.t.db.execute<{ student: string; year: string }>(sql`
    select s.id as student, y.id as year from students s
    join school_years y on y.org_id = s.org_id and y.current
    join memberships m on m.tenant_org_id = s.org_id join users u on u.id = m.user_id and u.account_num = ${account}
    where s.status = 'studying' and not exists (select 1 from physique_exemptions e where e.student_id = s.id)
    order by s.reg_no limit 1 offset ${uniq()}`);
  return { studentId: rows[0].student, schoolYearId: rows[0].year, kind: 'exempt', reason: '契约', certificateFileId: null };
};

/** A notice (docs/product-rules.md#notices) and the update body of its detail. */
const noticeBody = (audience: string): Body => ({ title: `契约公告${uniq()}`, content: '<p>契约</p>', audience, schoolIds: [], attachmentIds: [], pinned: false, published: true, showFrom: '2026-01-01', showUntil: null });
const noticeUpdate = (d: Body): Body => ({
  ...noticeBody(d.audience as string),
  title: d.title,
  attachmentIds: (d.attachments as { id: string }[]).map((a) => a.id),
  schoolIds: d.schoolIds,
  version: d.version,
});

const FIXTURES: Record<string, Fixture> = {
  'admin.org.department': { ...admin },
  'k12.org.acayear': { ...k12('k12.org.acayear'), update: schoolYearBody },
  'k12.org.class': {
    ...k12('k12.org.class'),
    create: async (c) => ({ gradeId: await grade(c, 'k12'), code: 60 + uniq(), name: `契约${n}班` }),
    inUse: (c) => c.firstId('school01', 'k12.org.class'),
  },
  'k12.org.grade': {
    ...k12('k12.org.grade'),
    inUse: (c) => c.firstId('school01', 'k12.org.grade'),
  },
  'gx.org.acayear': { ...gx('k12.org.acayear'), update: schoolYearBody },
  'gx.org.class': { ...gx('k12.org.class'), inUse: (c) => c.firstId('college01', 'gx.org.class') },
  'gx.org.grade': { ...gx('k12.org.grade'), inUse: (c) => c.firstId('college01', 'gx.org.grade') },
  'gx.org.college': {
    ...gx('k12.org.grade'),
    create: async () => ({ name: `契约学院${uniq()}`, code: String(60 + n) }),
    inUse: (c) => c.firstId('college01', 'gx.org.college'),
  },
  'gx.org.major': { ...gx('k12.org.class') },
  'k12.user.teacher': { update: blanks('k12.user.teacher'), ...k12('k12.user.teacher') },
  'gx.user.teacher': { update: blanks('gx.user.teacher'), ...gx('k12.user.teacher') },
  'k12.venue.device': {
    ...k12('k12.venue.device'),
    create: async () => ({ name: '契约设备', serialNo: `KIT-${uniq()}`, status: 'online', activated: false }),
  },
  'k12.venue.place': { ...k12('k12.venue.place') },
  ...Object.fromEntries(
    (['admin', 'k12', 'gx'] as const).map((family) => [
      `${family}.system.dictionary`,
      {
        as: { admin: 'district01', k12: 'school01', gx: 'college01' }[family],
        // A district's entries are its schools' too by design: tests/server/dictionaries covers who sees and edits what.
        noOther: 'platform entries lead the list and ancestors’ entries are shared: tests/server/dictionaries/dictionaries.test.ts',
        listQuery: '&dictionary=venueType',
        create: async () => ({ dictionary: 'venueType', code: `kit${uniq()}`, labelZhCn: '契约', labelZhTw: '', labelEnUs: '', sort: 1, enabled: true }),
        update: (d: Body) => {
          const labels = d.labels as { zh_cn: string; zh_tw: string; en_us: string };
          return { labelZhCn: labels.zh_cn, labelZhTw: labels.zh_tw, labelEnUs: labels.en_us, sort: d.sort, enabled: d.enabled, version: d.version };
        },
      } satisfies Fixture,
    ]),
  ),
  'k12.test.testDay': { ...k12('k12.test.testDay'), create: stationBody, update: blanks('k12.test.testDay') },
  'gx.test.testDay': { ...gx('k12.test.testDay'), noRows: 'the demo’s test day is the K12 school’s; the university has no station' },
  'gx.venue.device': {
    ...gx('k12.venue.device'),
    create: async () => ({ name: '契约设备', serialNo: `KIT-${uniq()}`, status: 'online', activated: false }),
  },
  'gx.venue.place': { ...gx('k12.venue.place') },
  'k12.user.student': { update: blanks('k12.user.student'), ...k12('k12.user.student') },
  'gx.user.student': { update: blanks('gx.user.student'), ...gx('k12.user.student') },
  'k12.user.parent': { update: blanks('k12.user.parent'), ...k12('k12.user.parent') },
  'admin.user.user': { ...admin, update: blanks('admin.user.user') },
  'admin.sportData.exerciseRecord': { ...admin },
  'k12.sportData.exerciseRecord': { ...k12('k12.sportData.exerciseRecord') },
  'gx.sportData.exerciseRecord': { ...gx('k12.sportData.exerciseRecord') },
  'admin.contest.competitionRank': { ...admin, noRows: 'the demo district holds no contest of its own; tests/server/contests/contests.test.ts covers it' },
  'k12.contest.competitionRank': { ...k12('k12.contest.competitionRank') },
  'gx.contest.competition': { ...gx('k12.contest.competitionRank') },
  'admin.banner.bannerConfig': { ...admin, noRows: 'needs an uploaded image file: covered by tests/server/content/banners.test.ts' },
  'k12.banner.bannerConfig': { ...k12('k12.banner.bannerConfig'), noRows: 'needs an uploaded image file: covered by tests/server/content/banners.test.ts' },
  'gx.banner.bannerConfig': { ...gx('k12.banner.bannerConfig'), noRows: 'needs an uploaded image file: covered by tests/server/content/banners.test.ts' },
  'k12.wiki.schoolWiki': {
    ...k12('k12.wiki.schoolWiki'),
    create: async () => ({ title: `契约百科${uniq()}`, category: WIKI_CATEGORIES[0], content: '<p>契约</p>', published: false }),
  },
  'gx.wiki.schoolWiki': {
    ...gx('k12.wiki.schoolWiki'),
    create: async () => ({ title: `契约百科${uniq()}`, category: WIKI_CATEGORIES[0], content: '<p>契约</p>', published: false }),
  },
  'admin.lesson.resourceLibrary': { ...admin },
  'admin.system.notice': { ...admin, create: async () => noticeBody('allSchools'), update: noticeUpdate },
  // The demo seeds no notices: the other organisation's row is one the district's own cases created just before.
  'k12.system.notice': { as: 'school01', other: { owner: 'district01', key: 'admin.system.notice', intruder: 'school01' }, create: async () => noticeBody('staff'), update: noticeUpdate },
  'gx.system.notice': { as: 'college01', other: { owner: 'district01', key: 'admin.system.notice', intruder: 'college01' }, create: async () => noticeBody('staff'), update: noticeUpdate },
  'admin.test.conversion': {
    ...admin,
    create: async () => ({ name: `契约换算表${uniq()}`, stage: 'junior', year: 2060, basis: 'total', maxPoints: 50, note: '', rows: [{ min: 60, points: 30 }] }),
    // The demo's sample table: the K12 school's current plan applies it.
    inUse: (c) => c.firstId('district01', 'admin.test.conversion', `&name=${encodeURIComponent('示例')}`),
  },
  'k12.lesson.lessonResource': { ...k12('k12.lesson.lessonResource') },
  'k12.sportsMeet.manage': { ...k12('k12.sportsMeet.manage') },
  'gx.sportsMeet.manage': { ...gx('k12.sportsMeet.manage'), noRows: 'the demo university holds no meet; tests/server/meets/meets.test.ts creates them' },
  'admin.homework.homeworkManagement': { ...admin },
  'k12.homework.homeworkManagement': { ...k12('k12.homework.homeworkManagement') },
  'k12.training.specialTraining': { ...k12('k12.training.specialTraining') },
  'k12.test.warning': { ...k12('k12.test.warning') },
  'gx.test.warning': { ...gx('k12.test.warning') },
  'k12.test.exemption': { ...k12('k12.test.exemption'), create: (c) => exemptionBody(c, 'school01') },
  'gx.test.exemption': { ...gx('k12.test.exemption'), create: (c) => exemptionBody(c, 'college01') },
  'k12.system.dataRequest': { ...k12('k12.system.dataRequest'), noRows: 'requests come from parents through the app API; tests/server/retention/data-requests.test.ts covers them and their tenancy' },
  'gx.system.dataRequest': { ...gx('k12.system.dataRequest'), noRows: 'requests come from parents through the app API; tests/server/retention/data-requests.test.ts covers them and their tenancy' },
  'k12.system.consent': { ...k12('k12.system.consent') },
  'gx.system.consent': { ...gx('k12.system.consent') },
  'admin.class.practise': { ...admin },
  'admin.class.test': { ...admin },
  'k12.class.practise': { ...k12('k12.class.practise'), noRows: 'lessons come from devices, and the demo school has none of this kind; tests/server/lessons covers it' },
  'k12.class.test': { ...k12('k12.class.test'), noRows: 'lessons come from devices, and the demo school has none of this kind; tests/server/lessons covers it' },
  'k12.class.match': { ...k12('k12.class.match'), noRows: 'lessons come from devices, and the demo school has none of this kind; tests/server/lessons covers it' },
  'k12.class.load': { ...k12('k12.class.load'), noRows: 'heart-rate lessons come from bands; tests/server/lesson-load/report.test.ts writes them and covers the rows' },
  'gx.class.load': { ...gx('k12.class.load'), noRows: 'heart-rate lessons come from bands; tests/server/lesson-load/report.test.ts covers the rows' },
  'k12.class.monitor': { ...k12('k12.class.monitor'), noRows: 'lessons in progress come from devices, and the demo database has none today; tests/server/lesson-load/monitor.test.ts covers it' },
  'gx.class.monitor': { ...gx('k12.class.monitor'), noRows: 'lessons in progress come from devices, and the demo database has none today; tests/server/lesson-load/monitor.test.ts covers it' },
};

let t: TestApp;
let declared: readonly DeclaredResource[];
let actions: readonly DeclaredAction[];
const prefixOf = (key: string) => declared.find((d) => d.key === key)!.prefix;
const ctx: Ctx = {
  get t() {
    return t;
  },
  async firstId(account, key, query = '') {
    const res = await t.as(account).get(`${prefixOf(key)}/page?current=1&size=10${query}`);
    expect(res.status, `${key} list as ${account}`).toBe(200);
    const id = (res.body.data as Page<{ id: string }>).records[0]?.id;
    if (!id) throw new Error(`${key} has no row for ${account}`);
    return id;
  },
};

const roleIdsOf = new Map<string, Promise<string[]>>();
async function loadRoleIds(account: string) {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, account));
  const ms = await t.db.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, user.id));
  return (await t.db.select({ roleId: membershipRoles.roleId }).from(membershipRoles).where(inArray(membershipRoles.membershipId, ms.map((m) => m.id)))).map((r) => r.roleId);
}

/** Takes the page's buttons from the account's roles while `run` runs, then gives them back. */
async function withoutButtons(account: string, key: string, actions: ButtonAction[], run: () => Promise<void>) {
  await withoutPermissions(account, actions.map((a) => pageAccess(key).need(a)), run);
}

/** Takes the permissions (page views or buttons) from the account's roles while `run` runs, then gives them back. */
async function withoutPermissions(account: string, permissions: string[], run: () => Promise<void>) {
  if (!roleIdsOf.has(account)) roleIdsOf.set(account, loadRoleIds(account));
  const roleIds = await roleIdsOf.get(account)!;
  const buttonMenus = (await t.db.select({ menuId: menus.menuId }).from(menus).where(inArray(menus.permission, permissions))).map((m) => m.menuId);
  const where = and(inArray(roleMenus.roleId, roleIds), inArray(roleMenus.menuId, buttonMenus));
  const kept = await t.db.select().from(roleMenus).where(where);
  await t.db.delete(roleMenus).where(where);
  try {
    await run();
  } finally {
    if (kept.length) await t.db.insert(roleMenus).values(kept);
  }
}

const audited = async (entity: string, entityId: string, action: string) =>
  t.db.$count(auditLogs, and(eq(auditLogs.entity, entity), eq(auditLogs.entityId, entityId), eq(auditLogs.action, action)));

/** A row of the acting organisation to write to: a fresh one when the fixture can create, else the first listed. */
async function ownRow(key: string, f: Fixture, canCreate: boolean): Promise<string | undefined> {
  if (f.noRows) return undefined;
  if (canCreate && f.create) {
    const made = await t.as(f.as).post(prefixOf(key), await f.create(ctx));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return (made.body.data as { id: string }).id;
  }
  return ctx.firstId(f.as, key, f.listQuery);
}

/** The update body of a row: its detail, cut to the keys the update schema has (some are strict), unless the fixture maps it. */
function updateBody(key: string, f: Fixture, detail: Body): Body {
  if (f.update) return f.update(detail);
  const schema = declared.find((d) => d.key === key)?.updateBody as { shape?: Record<string, unknown> } | undefined;
  if (!schema?.shape) return detail;
  return Object.fromEntries(Object.keys(schema.shape).filter((k) => k in detail).map((k) => [k, detail[k]]));
}

beforeAll(async () => {
  t = await createTestApp();
  declared = declaredResources(t.db);
  actions = declaredActions(t.db);
});
afterAll(async () => {
  await t?.close();
});

describe('kit contract', () => {
  it('every declared resource has a fixture row, and every row names a declared resource', () => {
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.map((d) => d.key).filter((k) => !FIXTURES[k])).toEqual([]);
    expect(Object.keys(FIXTURES).filter((k) => !declared.some((d) => d.key === k))).toEqual([]);
    for (const [key, f] of Object.entries(FIXTURES)) expect(Boolean(f.other) !== Boolean(f.noOther), `${key}: other or noOther`).toBe(true);
    for (const [key, f] of Object.entries(FIXTURES)) if (f.noRows) expect(Boolean(f.create), `${key}: noRows needs no create`).toBe(false);
  });

  // Built lazily: `declared` exists only once the app is built.
  const keys = Object.keys(FIXTURES);
  describe.each(keys)('%s', (key) => {
    const f = FIXTURES[key];
    const has = (m: DeclaredResource['methods'][number]) => declared.find((d) => d.key === key)?.methods.includes(m) ?? false;
    const api = () => prefixOf(key);

    it('pages in the allowed sizes only', async () => {
      if (!has('list')) return;
      const q = f.listQuery ?? '';
      const page = await t.as(f.as).get(`${api()}/page?current=1&size=10${q}`);
      expect(page.status).toBe(200);
      const data = page.body.data as Page<unknown>;
      expect(data).toMatchObject({ current: 1, size: 10 });
      expect(data.records.length).toBeLessThanOrEqual(10);
      expect(data.total).toBeGreaterThanOrEqual(data.records.length);
      expect((await t.as(f.as).get(`${api()}/page?current=1&size=7${q}`)).status).toBe(400);
      expect((await t.as(f.as).get(`${api()}/page?current=0&size=10${q}`)).status).toBe(400);
    });

    it("answers 404 for another organisation's row", async () => {
      if (!f.other || f.noRows || !(has('get') || has('update') || has('remove'))) return;
      const { owner, key: ownerKey, intruder } = f.other;
      const foreign = await ctx.firstId(owner, ownerKey);
      const me = t.as(intruder);
      if (has('get')) expect((await me.get(`${api()}/${foreign}`)).status).toBe(404);
      if (has('update') && has('get')) {
        // A body that validates (the owner's own row as its form would save it), so only the tenancy can refuse it.
        // The owner's own row when it is of this page; else (a university intruding into the school) the intruder's.
        const source = ownerKey === key ? { as: owner, id: foreign } : { as: intruder, id: (await ownRow(key, f, true))! };
        const theirs = (await t.as(source.as).get(`${prefixOf(ownerKey === key ? ownerKey : key)}/${source.id}`)).body.data as Body;
        const res = await me.put(`${api()}/${foreign}`, updateBody(key, f, theirs));
        expect(res.status, JSON.stringify(res.body)).toBe(404);
      }
      if (has('remove')) expect((await me.delete(`${api()}/${foreign}`)).status).toBe(404);
      expect((await t.as(owner).get(`${prefixOf(ownerKey)}/${foreign}`)).status).toBe(200);
      // Not a row id at all: the same 404.
      if (has('get')) expect((await me.get(`${api()}/not-an-id`)).status).toBe(404);
    });

    it('refuses each write without its button (403) and changes nothing', async () => {
      const me = t.as(f.as);
      const id = has('list') && (has('update') || has('remove')) ? await ownRow(key, f, has('create')) : undefined;
      const detail = id && has('update') && has('get') ? ((await me.get(`${api()}/${id}`)).body.data as Body) : undefined;
      const createBody = has('create') ? (f.create ? await f.create(ctx) : {}) : undefined;
      const actions: ButtonAction[] = [...(createBody ? ['add' as const] : []), ...(detail ? ['edit' as const] : []), ...(id && has('remove') ? ['delete' as const] : [])];
      if (!actions.length) return;
      await withoutButtons(f.as, key, actions, async () => {
        if (createBody) expect((await me.post(api(), createBody)).status).toBe(403);
        if (detail) expect((await me.put(`${api()}/${id}`, updateBody(key, f, detail))).status).toBe(403);
        if (id && has('remove')) expect((await me.delete(`${api()}/${id}`)).status).toBe(403);
      });
      if (detail) expect((await me.get(`${api()}/${id}`)).body.data).toEqual(detail);
      else if (id && has('get')) expect((await me.get(`${api()}/${id}`)).status).toBe(200);
    });

    it('refuses a stale save (409) and audits each write', async () => {
      const me = t.as(f.as);
      let id: string | undefined;
      if (has('create') && f.create) {
        const made = await me.post(api(), await f.create(ctx));
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        id = (made.body.data as { id: string }).id;
        expect(await audited(declared.find((d) => d.key === key)!.entity, id, 'create')).toBe(1);
      }
      const target = id ?? (has('update') && has('get') && has('list') ? await ownRow(key, f, false) : undefined);
      if (target && has('update') && has('get')) {
        const detail = (await me.get(`${api()}/${target}`)).body.data as Body & { version: number };
        const body = updateBody(key, f, detail);
        const stale = await me.put(`${api()}/${target}`, { ...body, version: detail.version - 1 });
        expect(stale.status, JSON.stringify(stale.body)).toBe(409);
        const saved = await me.put(`${api()}/${target}`, body);
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
        expect(await audited(declared.find((d) => d.key === key)!.entity, target, 'update')).toBeGreaterThanOrEqual(1);
      }
      if (id && has('remove')) {
        expect((await me.delete(`${api()}/${id}`)).status).toBe(200);
        expect(await audited(declared.find((d) => d.key === key)!.entity, id, 'delete')).toBe(1);
        if (has('get')) expect((await me.get(`${api()}/${id}`)).status).toBe(404);
      }
    });

    it('refuses deleting a row others depend on (409)', async () => {
      if (!f.inUse || !has('remove')) return;
      const id = await f.inUse(ctx);
      const res = await t.as(f.as).delete(`${api()}/${id}`);
      expect(res.status).toBe(409);
      expect(res.body.msg).toBeTruthy();
      if (has('get')) expect((await t.as(f.as).get(`${api()}/${id}`)).status).toBe(200);
    });
  });
});

/**
 * The linked-records kit's contract (server/lib/linked.ts registerLinked) over every declaration: paging of the linked
 * records, 404 for another organisation's owner, 403 without the owner page's button, and one audit row per write
 * that changes something (linking again changes nothing and logs nothing). A new declaration fails the suite until it
 * has a row in LINKED_FIXTURES.
 */
interface LinkedFixture {
  /** The account acting (an administrator holding every button of the owner page). */
  as: string;
  /** An owner of the acting organisation with at least one candidate. */
  owner(ctx: Ctx): Promise<string>;
  /** Another organisation's owner, listed by `owner` on page `key`, and who tries it on this page (see Fixture.other). */
  other?: { owner: string; key: string; ownerOf(ctx: Ctx): Promise<string>; intruder: string };
  noOther?: string;
}

/** A role that is not the built-in administrator role (whose members the tests should leave alone). */
const plainRole = async (c: Ctx, account: string, family: 'admin' | 'k12' | 'gx') => {
  const res = await c.t.as(account).get(`/api/busi/web/${family}/role/page?current=1&size=20`);
  const row = (res.body.data as Page<{ id: string; builtin: boolean }>).records.find((r) => !r.builtin);
  if (!row) throw new Error(`${family} roles of ${account}: none but the built-in one`);
  return row.id;
};
const firstDepartment = async (c: Ctx) => ((await c.t.as('district01').get('/api/busi/web/admin/departmentManage/tree')).body.data as { id: string }[])[0].id;
const firstVenue = (account: string, family: 'k12' | 'gx') => (c: Ctx) => c.firstId(account, `${family}.venue.place`);

/** A warning case of the demo school whose student is in a training plan not linked to it (server/seed/warnings-demo.ts). */
const caseWithCandidate = async (c: Ctx) => {
  const cases = (await c.t.as('school01').get('/api/busi/web/k12/physiqueManage/warning/page?current=1&size=80')).body.data as Page<{ id: string }>;
  for (const { id } of cases.records) {
    const found = (await c.t.as('school01').get(`/api/busi/web/k12/physiqueManage/warning/${id}/candidates`)).body.data as unknown[];
    if (found.length) return id;
  }
  throw new Error('no warning case with a training plan to link');
};

const LINKED_FIXTURES: Record<string, LinkedFixture> = {
  'k12.test.warning': { as: 'school01', owner: caseWithCandidate, other: { owner: 'school01', key: 'k12.test.warning', ownerOf: caseWithCandidate, intruder: 'school02' } },
  'admin.user.role': { as: 'district01', owner: (c) => plainRole(c, 'district01', 'admin'), noOther: admin.noOther },
  'k12.user.role': { as: 'school01', owner: (c) => plainRole(c, 'school01', 'k12'), other: { owner: 'school01', key: 'k12.user.role', ownerOf: (c) => plainRole(c, 'school01', 'k12'), intruder: 'school02' } },
  'gx.user.role': { as: 'college01', owner: (c) => plainRole(c, 'college01', 'gx'), other: { owner: 'school01', key: 'k12.user.role', ownerOf: (c) => plainRole(c, 'school01', 'k12'), intruder: 'college01' } },
  'admin.org.department': { as: 'district01', owner: firstDepartment, noOther: admin.noOther },
  'k12.venue.place': { as: 'school01', owner: firstVenue('school01', 'k12'), other: { owner: 'school01', key: 'k12.venue.place', ownerOf: firstVenue('school01', 'k12'), intruder: 'school02' } },
  'gx.venue.place': { as: 'college01', owner: firstVenue('college01', 'gx'), other: { owner: 'school01', key: 'k12.venue.place', ownerOf: firstVenue('school01', 'k12'), intruder: 'college01' } },
};

describe('linked-records kit contract', () => {
  let linked: readonly DeclaredLinked[];
  const decl = (key: string) => linked.find((d) => d.key === key)!;
  beforeAll(() => {
    linked = declaredLinked(t.db);
  });

  it('every linked declaration has a fixture row, and every row names a declaration', () => {
    expect(linked.length).toBeGreaterThanOrEqual(6);
    expect(linked.map((d) => d.key).filter((k) => !LINKED_FIXTURES[k])).toEqual([]);
    expect(Object.keys(LINKED_FIXTURES).filter((k) => !linked.some((d) => d.key === k))).toEqual([]);
    for (const [key, f] of Object.entries(LINKED_FIXTURES)) expect(Boolean(f.other) !== Boolean(f.noOther), `${key}: other or noOther`).toBe(true);
  });

  describe.each(Object.keys(LINKED_FIXTURES))('%s', (key) => {
    const f = LINKED_FIXTURES[key];
    const at = (owner: string, rest = '') => `${decl(key).prefix}/${owner}/${decl(key).path}${rest}`;
    const total = async (owner: string) => ((await t.as(f.as).get(at(owner, '?current=1&size=10'))).body.data as Page<unknown>).total;
    const firstCandidate = async (owner: string) => {
      const res = await t.as(f.as).get(`${decl(key).prefix}/${owner}/candidates`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const c = (res.body.data as ({ id?: string; accountId?: string })[])[0];
      if (!c) throw new Error(`${key}: owner ${owner} has no candidate`);
      return (c.accountId ?? c.id)!;
    };

    it('pages the linked records in the allowed sizes only', async () => {
      const owner = await f.owner(ctx);
      const page = await t.as(f.as).get(at(owner, '?current=1&size=10'));
      expect(page.status).toBe(200);
      const data = page.body.data as Page<unknown>;
      expect(data).toMatchObject({ current: 1, size: 10 });
      expect(data.records.length).toBeLessThanOrEqual(10);
      expect(data.total).toBeGreaterThanOrEqual(data.records.length);
      expect((await t.as(f.as).get(at(owner, '?current=1&size=7'))).status).toBe(400);
      expect((await t.as(f.as).get(at(owner, '?current=0&size=10'))).status).toBe(400);
    });

    it("answers 404 for another organisation's owner on every route, and changes nothing", async () => {
      if (!f.other) return;
      const { owner, key: ownerKey, intruder } = f.other;
      const foreign = await f.other.ownerOf(ctx);
      const theirs = `${decl(ownerKey).prefix}/${foreign}`;
      const ownerPage = async () => (await t.as(owner).get(`${theirs}/${decl(ownerKey).path}?current=1&size=10`)).body.data as Page<{ id?: string; accountId?: string }>;
      const before = await ownerPage();
      // Records of the owner's organisation: one linked (to unlink) and one not (to link), so only the owner can refuse.
      const member = before.records[0] ?? null;
      const [candidate] = (await t.as(owner).get(`${theirs}/candidates`)).body.data as { id?: string; accountId?: string }[];
      const idOf = (r: { id?: string; accountId?: string }) => (r.accountId ?? r.id)!;
      const me = t.as(intruder);
      const mine = `${decl(key).prefix}/${foreign}`;
      expect((await me.get(`${mine}/${decl(key).path}`)).status).toBe(404);
      expect((await me.get(`${mine}/candidates`)).status).toBe(404);
      expect((await me.post(`${mine}/${decl(key).path}`, { [decl(key).ids]: [idOf(candidate)] })).status).toBe(404);
      if (member) {
        expect((await me.delete(`${mine}/${decl(key).path}`, { [decl(key).ids]: [idOf(member)] })).status).toBe(404);
        expect((await me.delete(`${mine}/${decl(key).path}/${idOf(member)}`)).status).toBe(404);
      }
      expect((await ownerPage()).total).toBe(before.total);
      // Not an id at all: the same 404.
      expect((await me.get(`${decl(key).prefix}/not-an-id/${decl(key).path}`)).status).toBe(404);
    });

    it('refuses every route without the button (403) and changes nothing', async () => {
      const owner = await f.owner(ctx);
      const candidate = await firstCandidate(owner);
      const before = await total(owner);
      const me = t.as(f.as);
      const body = { [decl(key).ids]: [candidate] };
      await withoutButtons(f.as, key, [decl(key).action], async () => {
        expect((await me.get(at(owner))).status).toBe(403);
        expect((await me.get(`${decl(key).prefix}/${owner}/candidates`)).status).toBe(403);
        expect((await me.post(at(owner), body)).status).toBe(403);
        expect((await me.delete(at(owner), body)).status).toBe(403);
        expect((await me.delete(at(owner, `/${candidate}`))).status).toBe(403);
      });
      expect(await total(owner)).toBe(before);
    });

    it('links and unlinks with one audit row per change; linking again changes and logs nothing; unlinking twice is 404', async () => {
      const owner = await f.owner(ctx);
      const { entity, linkAudit, unlinkAudit, ids } = decl(key);
      const candidate = await firstCandidate(owner);
      const before = await total(owner);
      const me = t.as(f.as);
      const linkedBefore = await audited(entity, owner, linkAudit);
      const res = await me.post(at(owner), { [ids]: [candidate, candidate] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.msg).toBeTruthy();
      expect(await total(owner)).toBe(before + 1);
      expect(await audited(entity, owner, linkAudit)).toBe(linkedBefore + 1);

      expect((await me.post(at(owner), { [ids]: [candidate] })).status).toBe(200);
      expect(await total(owner)).toBe(before + 1);
      expect(await audited(entity, owner, linkAudit)).toBe(linkedBefore + 1);

      const unlinkedBefore = await audited(entity, owner, unlinkAudit);
      const gone = await me.delete(at(owner), { [ids]: [candidate] });
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
      expect(gone.body.msg).toBeTruthy();
      expect(await total(owner)).toBe(before);
      expect(await audited(entity, owner, unlinkAudit)).toBe(unlinkedBefore + 1);
      expect((await me.delete(at(owner, `/${candidate}`))).status).toBe(404);
      expect(await audited(entity, owner, unlinkAudit)).toBe(unlinkedBefore + 1);
    });
  });
});


const U = '0b6f3a52-6c1e-4c53-9a41-7d1b2c3e4f50';
/**
 * A body each write action validates (ids that name nothing), keyed by method and the path after the row's `:id`: so
 * only the tenancy can refuse the action across organisations. Actions without a body need no row.
 */
const ACTION_BODIES: Record<string, Body> = {
  'POST /checkIn': { code: 'KIT0001' },
  'PUT /entry': { studentId: U, field: 'run50m', source: 'typed', value: '8.5' },
  'POST /student/:studentId/confirm': { entries: [{ id: U, version: 1 }] },
  'POST /physiqueManage/testDay/entry/:id/appeal': { note: '契约', version: 1 },
  'POST /physiqueManage/testDay/entry/:id/resolve': { outcome: 'keep', version: 1 },
  'PUT /decide': { decision: 'approved', note: '', version: 1 },
  'PUT /handle': { status: 'done', note: '契约', version: 1 },
  'PUT /system/retention/schedule': { homeworkVideos: 1, heartRateRaw: 30, graduates: 3, signInLogs: 180, auditLog: 180, accessLog: 180, version: 0 },
  'POST /messages/read': { ids: [U] },
  'POST /system/exportApproval': { screen: 'k12.user.student', query: {}, reason: '契约' },
  'POST /system/exportApproval/:id/decide': { approve: false, note: '' },
  'PUT /system/security': { passwordMinLength: 8, passwordClasses: 2, totpRequiredForAdministrators: false, idleTimeoutMinutes: 30, sessionLifetimeHours: 12, watermark: true, exportApprovalRows: 100, maskStudentNames: false, version: 0 },
  'PUT /record': { purpose: 'video', state: 'given', formFileId: U, note: '', version: 0 },
  'POST /entries': { studentId: U, eventIds: [U] },
  'POST /teams': { eventId: U, classId: U, teamName: '契约', legs: [] },
  'PUT /teams/:entryId': { eventId: U, classId: U, teamName: '契约', legs: [] },
  'PUT /entries/:entryId/bib': { bib: '1' },
  'POST /entries/review': { ids: [U], status: 'approved' },
  'PUT /athletes/:athleteId/bib': { bib: '1' },
  'POST /draw': {},
  'POST /arrangement/clear': {},
  'PUT /lanes/:resultId': { heatId: U, lane: 1 },
  'POST /schedule': {},
  'PUT /heats/:heatId/slot': { day: 0, start: '08:00' },
  'PUT /heats/:heatId/results': { results: [{ id: U }] },
  'POST /results/step': { step: 'confirm', heatIds: [U] },
  'PUT /results/:resultId/invalid': { invalid: false },
  'POST /boardLinks': { name: '契约' },
  'POST /photos': { fileIds: [U] },
  'PUT /photos/:photoId': { caption: '契约' },
  'POST /entries/invalid': { ids: [U], reason: '契约' },
  'POST /entries/valid': { ids: [U] },
  'PUT /status': { enabled: true },
  'PUT /password': { mode: 'generate' },
  'PUT /move': { direction: 'up' },
  'PUT /publish': { published: true },
  'PUT /app-account/status': { enabled: true },
  'PUT /app-account/password': { mode: 'generate' },
  'POST /user/student/transfer': { studentIds: [U], classId: U },
  'POST /user/student/facePhotos/match': { names: ['契约.jpg'] },
  'POST /user/teacher/facePhotos/match': { names: ['契约.jpg'] },
  'POST /user/student/facePhotos/apply': { items: [{ personId: U, fileId: U }] },
  'POST /user/teacher/facePhotos/apply': { items: [{ personId: U, fileId: U }] },
  // Bodies of actions whose `:id` is not a declared resource's row (checked by their own suites).
  'POST /': {},
  'POST /sportsMeet/stamps': {},
  'PUT /currentOrg/:id': { name: '契约学校', code: '60', activatableDevices: 0 },
  'PUT /orgManage/orgInfo/:id/status': { enabled: true },
  'PUT /sportsHomework/homeworkManagement/submissions/:id/review': { verdict: 'valid' },
  // Ids that name nothing: nothing is set invalid, so nothing is logged.
  'POST /organizeTest/scoreSearch/invalid': { ids: [U] },
  'POST /organizeTest/scoreSearch/valid': { ids: [U] },
  'PUT /physiqueManage/warning/settings': { declinePoints: 10, bmiBands: ['obese', 'lowWeight'], failingItem: true, missing: true, version: 0 },
  'POST /physiqueManage/warning/cases': { studentId: U, kind: 'missing' },
  'PUT /case': { assignedTeacherId: null, status: 'open', note: '', version: 1 },
  'POST /actions': { kind: 'note', note: '契约', version: 1 },
  'POST /training': { name: '契约训练', cycle: 'daily', startDate: '2030-01-01', endDate: '2030-01-10', items: [{ item: 'rope1min', target: 60, intensity: 'medium' }] },
  'POST /physiqueManage/testResult/invalid': { ids: [U] },
  'POST /physiqueManage/testResult/valid': { ids: [U] },
  'POST /selfTest/testRecord/invalid': { ids: [U] },
  'POST /selfTest/testRecord/valid': { ids: [U] },
  'POST /exerciseRecord/invalid': { ids: [U], reason: '契约' },
  'POST /exerciseRecord/valid': { ids: [U] },
  'POST /physiqueManage/testResult/editUpReport/:id': { field: 'heightCm', value: '170' },
  // A plan's form names a school year, classes and items: an empty one is refused (400), so only the permission is
  // checked here; tests/server/test-plans covers the writes and their audit rows.
  'POST /organizeTest/testManage/add': {},
  // 发起补测 names a plan and days: an empty body is refused (400); tests/server/retest covers the write and its audit row.
  'POST /physiqueManage/retest/add': {},
  // A link would be made by a valid body (its token shown once); tests/server/data-center covers it and its audit row.
  'POST /dataCenter/screenLink': {},
  'POST /organizeTest/testManage/edit/:id': {},
  'POST /organizeTest/testManage/reopen/:id': {},
  'POST /organizeTest/testManage/dates/:id': { startDate: '2026-03-01', endDate: '2026-03-31' },
  // The caller's own (myInfo, signed in): ids that are not the caller's are 404; tests/server/my-info covers them.
  'POST /switchRole': { accountId: U, roleId: U, tenantOrgId: U },
  'POST /switchOrg': { orgId: U, tenantOrgId: U },
  'POST /editUser': { userName: '契约', mobile: '', gender: 'unknown' },
  // The caller's own list settings (listSettings, signed in): tests/server/list-settings covers them.
  'POST /save': { listKey: 'k12.org.class:list', settings: { hidden: [], order: [], pinStart: [], pinEnd: [], density: 'default' } },
  'POST /reset': { listKey: 'k12.org.class:list' },
  // Lending bands names students of the lesson's class; tests/server/lesson-load/monitor.test.ts covers the write and its audit row.
  'PUT /bands': { bindings: [], version: 1 },
  'PUT /alerts/:alertId/acknowledge': { note: '契约' },
};

/** The account that holds a family's pages in the demo. */
const ACCOUNT = { admin: 'district01', k12: 'school01', gx: 'college01' } as const;
const familyOf = (a: DeclaredAction) => a.url.split('/')[4] as keyof typeof ACCOUNT;
const codesOf = (access: readonly Access[]) =>
  access.flatMap(([key, action, ...alternatives]) => [[key, action] as const, ...alternatives].map(([k, a]) => (a === 'view' ? pageAccess(k).view : pageAccess(k).need(a))));
/** The resource whose row an action's `:id` names (the action sits at `{prefix}/:id/...`), and what follows it. */
function rowOf(a: DeclaredAction): { key: string; tail: string } | undefined {
  const owner = declared.find((d) => a.url.startsWith(`${d.prefix}/:id/`) || a.url === `${d.prefix}/:id`);
  return owner && { key: owner.key, tail: a.url.slice(`${owner.prefix}/:id`.length) || '/' };
}
/** The URL with every uuid param filled: the row's `:id`, and ids that name nothing for the rest. */
const urlOf = (a: DeclaredAction, id = U) => a.url.replace(':id/', `${id}/`).replace(/:id$/, id).replace(/:\w+/g, U);
const send = (account: string, a: DeclaredAction, url: string, body?: Body) => {
  const me = t.as(account);
  if (a.method === 'GET') return me.get(url);
  if (a.method === 'DELETE') return me.delete(url);
  // An upload gets a file (not a workbook: refused once the tenancy let it through), so only the tenancy can say 404.
  if (a.upload) {
    const { payload, headers } = multipartBody(Buffer.from('契约'), '契约.xlsx');
    return me.post(url, payload, { headers });
  }
  return a.method === 'POST' ? me.post(url, body ?? {}) : me.put(url, body ?? {});
};
/** `ACTION_BODIES`' key: the path after the row's `:id`, '/' at a resource's own prefix, else the path in the family. */
const bodyKey = (a: DeclaredAction) =>
  `${a.method} ${rowOf(a)?.tail ?? (declared.some((d) => d.prefix === a.url) ? '/' : a.url.replace(/^\/api\/busi\/web\/\w+/, ''))}`;

describe('action kit contract', () => {
  it('declares the actions of meets, contests and content, each write with its audit entity and a sample body', () => {
    expect(actions.length).toBeGreaterThan(50);
    for (const a of actions) {
      // Signed in only (the caller's own data) has no permission; everything else has one.
      expect(a.signedIn || codesOf(a.access).length > 0, a.url).toBe(true);
      if (a.signedIn) expect(a.access, a.url).toEqual([]);
      if (a.kind === 'write') expect(a.entity, a.url).toBeTruthy();
    }
    // Every write with a body has a sample body (all missing ones named at once).
    expect(actions.filter((a) => a.kind === 'write' && a.body && ACTION_BODIES[bodyKey(a)] === undefined).map((a) => `${bodyKey(a)} (${a.url})`)).toEqual([]);
  });

  // Built lazily, as above: one case per action, named by method and URL.
  const cases = () => actions.map((a) => [`${a.method} ${a.url}`, a] as const);
  it('answers 401 without a session: the console API signs in once for every module', async () => {
    const urls = [...declared.flatMap((d) => [...(d.methods.includes('list') ? [`GET ${d.prefix}/page`] : []), ...(d.methods.includes('create') ? [`POST ${d.prefix}`] : [])]), ...actions.map((a) => `${a.method} ${urlOf(a)}`)];
    for (const entry of urls) {
      const [method, url] = entry.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
      const res = await t.request({ method, url, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
      expect(res.statusCode, entry).toBe(401);
    }
  });
  it('refuses each action without its permission (403), and only then', async () => {
    for (const [name, a] of cases()) {
      if (a.signedIn) continue;
      const account = ACCOUNT[familyOf(a)];
      const body = a.body ? ACTION_BODIES[bodyKey(a)] : undefined;
      const allowed = await send(account, a, urlOf(a), body);
      expect(allowed.status, `${name} as ${account} with the permission`).not.toBe(403);
      await withoutPermissions(account, codesOf(a.access), async () => {
        expect((await send(account, a, urlOf(a), body)).status, `${name} without the permission`).toBe(403);
      });
    }
    // Every action of every family, twice each, one after another: minutes on a loaded CI machine.
  }, 300_000);

  it('lets any signed-in account call a signed-in action, with no permission to refuse', async () => {
    const signedIn = actions.filter((a) => a.signedIn);
    expect(signedIn.length).toBeGreaterThan(0);
    for (const a of signedIn.filter((x) => x.method === 'GET' && !x.url.includes(':'))) {
      // A family's route (its path starts with the family) is for that family's accounts, as every family route is.
      const family = familyOf(a);
      for (const account of family in ACCOUNT ? [ACCOUNT[family]] : Object.values(ACCOUNT)) expect((await send(account, a, a.url)).status, `${a.url} as ${account}`).toBe(200);
    }
  });

  it("answers 404 for another organisation's row, and writes nothing", async () => {
    let checked = 0;
    for (const [name, a] of cases()) {
      const row = rowOf(a);
      const f = row && FIXTURES[row.key];
      if (!row || !f?.other || FIXTURES[f.other.key].noRows) continue;
      const foreign = await ctx.firstId(f.other.owner, f.other.key);
      const before = await t.db.$count(auditLogs, eq(auditLogs.entityId, foreign));
      const res = await send(f.other.intruder, a, urlOf(a, foreign), a.body ? ACTION_BODIES[bodyKey(a)] : undefined);
      expect(res.status, `${name} by ${f.other.intruder}: ${JSON.stringify(res.body)}`).toBe(404);
      expect(await t.db.$count(auditLogs, eq(auditLogs.entityId, foreign)), name).toBe(before);
      // Not a row id at all: the same 404.
      expect((await send(f.other.intruder, a, urlOf(a, 'not-an-id'), a.body ? ACTION_BODIES[bodyKey(a)] : undefined)).status, `${name} not-an-id`).toBe(404);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('writes an audit row with the action of each write that succeeds', async () => {
    const wiki = actions.find((a) => a.url === '/api/busi/web/k12/wikiManagement/schoolWiki/:id/publish')!;
    const id = await ctx.firstId('school01', 'k12.wiki.schoolWiki');
    const detail = (await t.as('school01').get(`${prefixOf('k12.wiki.schoolWiki')}/${id}`)).body.data as { version: number; published: boolean };
    const res = await send('school01', wiki, urlOf(wiki, id), { published: !detail.published, version: detail.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.msg).toBeTruthy();
    expect(await audited('wiki', id, detail.published ? 'unpublish' : 'publish')).toBe(1);

    // The audit action of an action is declared with it (the kit writes it; the meets suites check each one).
    expect(actions.find((a) => a.url === '/api/busi/web/k12/sportsMeet/:id/end')?.audit).toBe('end');
  });
});
