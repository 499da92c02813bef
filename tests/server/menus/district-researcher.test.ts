import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { MenuNode, UInfo } from '@/domain/auth/types';
import { landingPath } from '@/domain/menus/tree';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * The district PE researcher (jiaoyan01, a read-only district role) lands on the district's 学校概览,
 * has the personal centre like every account, and holds no button that changes data.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await t.login('jiaoyan01')).access_token;
});
afterAll(async () => {
  await t?.close();
});

const paths = (tree: readonly MenuNode[]): string[] => tree.flatMap((n) => [n.menuPath, ...paths(n.children)].filter(Boolean));

describe('district PE researcher', () => {
  it('lands on the schools overview, has the personal centre and only looks', async () => {
    const res = await t.request({ url: '/api/busi/web/myInfo/getUInfo', token });
    expect(res.statusCode).toBe(200);
    const info = res.json<Envelope<UInfo>>().data;
    expect(landingPath(info.menuTree)).toBe('/admin/dataCenter/overview');
    const menu = paths(info.menuTree);
    expect(menu).toEqual(expect.arrayContaining(['/admin/dataCenter/overview', '/admin/organizeTest/testManage', '/admin/organizeTest/scoreSearch', '/myInfo/base', '/myInfo/editAccount']));
    expect(menu.some((p) => p.startsWith('/admin/user') || p.startsWith('/admin/orgManage') || p.startsWith('/admin/system'))).toBe(false);
    // Read-only: views and details, never add, edit, delete, status, import or export.
    const writes = info.permissions.filter((p) => p.includes(':') && !/:(view|detail)$/.test(p));
    expect(writes).toEqual([]);

    const overview = await t.request({ url: '/api/busi/web/admin/dataCenter/overview', token });
    expect(overview.statusCode, overview.body).toBe(200);
  });
});
