import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_TYPE } from '../../../src/domain/constants';
import { CATALOG, getCatalogEntry } from '../../../src/domain/menus/catalog';
import { toMenuEntries } from '../../../src/domain/menus/menu-entries';
import type { DbHandle } from '../../../server/db/client';
import { menus, roleMenus, roles } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { syncMenus } from '../../../server/modules/menus/menu-sync';
import { testDb } from '../../support/server-db';

let h: DbHandle;
beforeAll(async () => {
  h = await testDb();
});
afterAll(async () => {
  await h?.close();
});

describe('menu sync at start', () => {
  it('gives built-in administrator roles the screens the catalogue gained, and leaves other roles alone', async () => {
    const [uni] = await h.db.select().from(orgs).where(eq(orgs.type, ORG_TYPE.university));
    const [admin] = await h.db.select().from(roles).where(and(eq(roles.orgId, uni.id), eq(roles.builtin, true)));
    const [teacher] = await h.db.select().from(roles).where(and(eq(roles.orgId, uni.id), eq(roles.builtin, false)));
    const countFor = async (roleId: string) =>
      (await h.db.select({ n: count() }).from(roleMenus).where(eq(roleMenus.roleId, roleId)))[0].n;
    const adminBefore = await countFor(admin.id);
    // As if the database predates the university data centre: its menus are missing from both roles.
    await h.db.delete(roleMenus).where(sql`${roleMenus.menuId} like 'gx.dataCenter%'`);
    const teacherAfterDelete = await countFor(teacher.id);
    expect(await countFor(admin.id)).toBeLessThan(adminBefore);

    await syncMenus(h.db);
    expect(await countFor(admin.id)).toBe(adminBefore);
    expect(await countFor(teacher.id)).toBe(teacherAfterDelete);
  });

  it('writes nothing when the catalogue did not change, and puts back an entry that differs from it', async () => {
    // xmin changes with every write of a row: equal before and after means the start wrote nothing (and so retired no
    // cached answer through the change feed).
    const versions = async () =>
      new Map((await h.db.execute<{ id: string; v: string }>(sql`select menu_id as id, xmin::text as v from menus`)).rows.map((r) => [r.id, r.v]));
    const grants = async () => (await h.db.execute<{ v: string }>(sql`select string_agg(xmin::text, ',' order by role_id, menu_id) as v from role_menus`)).rows[0].v;
    await syncMenus(h.db);
    const before = await versions();
    const grantsBefore = await grants();
    await syncMenus(h.db);
    expect(await versions()).toEqual(before);
    expect(await grants()).toBe(grantsBefore);

    const [entry] = toMenuEntries(CATALOG);
    await h.db.update(menus).set({ menuName: 'stale name', sortNum: 999 }).where(eq(menus.menuId, entry.menuId));
    await syncMenus(h.db);
    const [row] = await h.db.select().from(menus).where(eq(menus.menuId, entry.menuId));
    expect(row.menuName).toBe(entry.menuName);
    expect(row.sortNum).toBe(entry.sortNum);
    const after = await versions();
    expect([...after].filter(([id, v]) => before.get(id) !== v).map(([id]) => id)).toEqual([entry.menuId]);

    // A column the database has empty where the catalogue has a value (and the other way round) differs too.
    const withIcon = toMenuEntries(CATALOG).find((m) => m.icon)!;
    await h.db.update(menus).set({ icon: null, code: 'stale' }).where(eq(menus.menuId, withIcon.menuId));
    await syncMenus(h.db);
    const [restored] = await h.db.select().from(menus).where(eq(menus.menuId, withIcon.menuId));
    expect(restored.icon).toBe(withIcon.icon);
    expect(restored.code).toBe(withIcon.menuType === '0' ? getCatalogEntry(withIcon.menuId.split('#')[0])!.code : null);
  });
});
