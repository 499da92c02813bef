import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { SchoolView, WallSceneAnswer } from '@/domain/data-center/types';
import type { ScreenLinkCreated, ScreenLinkRow, WallConfig } from '@/domain/wall/wall';
import { auditLogs } from '../../../server/db/schema/audit';
import { screenLinks } from '../../../server/db/schema/data-center';
import { orgs } from '../../../server/db/schema/orgs';
import { hashSecret } from '../../../server/lib/tokens';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let uniId: string;

const playlist = { scenes: ['schoolOverview', 'classRanking', 'weakestItems'], intervalSeconds: 15, refreshSeconds: 60 };

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'teacher01', 'college01', 'district01']) tokens[account] = (await t.login(account)).access_token;
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  uniId = rows.find((o) => o.type === ORG_TYPE.university)!.id;
});
afterAll(async () => {
  await t?.close();
});

const create = (family: string, account: string, payload: object, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: `/api/busi/web/${family}/dataCenter/screenLink`, token: tokens[account], payload, headers });
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;

describe('screen links', () => {
  let link: ScreenLinkCreated;

  beforeAll(async () => {
    const res = await create('k12', 'school01', { name: '操场大屏', playlist });
    expect(res.statusCode, res.body).toBe(200);
    link = data<ScreenLinkCreated>(res);
  });

  it('are created with the wall path shown once; only the token hash is stored', async () => {
    expect(link.path).toBe(`/busi/wall/${link.token}`);
    expect(link).toMatchObject({ name: '操场大屏', orgId: k12Id, revokedAt: null, playlist });
    const [row] = await t.db.select().from(screenLinks).where(eq(screenLinks.id, link.id));
    expect(row.tokenHash).toBe(hashSecret(link.token));
    expect(JSON.stringify(row)).not.toContain(link.token);
    const list = data<ScreenLinkRow[]>(await t.request({ url: '/api/busi/web/k12/dataCenter/screenLink', token: tokens.school01 }));
    const listed = list.find((l) => l.id === link.id)!;
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('token');
    expect(listed.createdByName).toBe('陈丽华');
  });

  it('serve the config and the scenes without a sign-in', async () => {
    const cfg = await t.request({ url: `/api/screen/${link.token}/config` });
    expect(cfg.statusCode).toBe(200);
    expect(cfg.headers['cache-control']).toBe('no-store');
    expect(data<WallConfig>(cfg)).toMatchObject({ name: '操场大屏', orgId: k12Id, playlist });

    const school = data<SchoolView>(await t.request({ url: '/api/busi/web/k12/dataCenter/school', token: tokens.school01 }));
    const overview = data<WallSceneAnswer>(await t.request({ url: `/api/screen/${link.token}/scene/schoolOverview` }));
    expect(overview.scope.orgId).toBe(k12Id);
    expect(overview.data.scene).toBe('schoolOverview');
    if (overview.data.scene === 'schoolOverview') {
      expect(overview.data.overview).toEqual(school.overview);
      expect(overview.data.trend).toEqual(school.trend);
    }
    const ranking = data<WallSceneAnswer>(await t.request({ url: `/api/screen/${link.token}/scene/classRanking` }));
    if (ranking.data.scene === 'classRanking') expect(ranking.data.ranking).toEqual(school.ranking);
    else throw new Error('classRanking scene expected');
    // A scene the playlist leaves out, and a scene that does not exist.
    expect((await t.request({ url: `/api/screen/${link.token}/scene/gradeComparison` })).statusCode).toBe(404);
    expect((await t.request({ url: `/api/screen/${link.token}/scene/myInfo` })).statusCode).toBe(404);
    // Seen: the list shows when.
    const [row] = await t.db.select({ lastSeenAt: screenLinks.lastSeenAt }).from(screenLinks).where(eq(screenLinks.id, link.id));
    expect(row.lastSeenAt).not.toBeNull();
  });

  it('the token grants nothing else: not myInfo, not another organisation, no writes', async () => {
    const bearer = { authorization: `bearer ${link.token}` };
    expect((await t.request({ url: '/api/busi/web/myInfo/getUInfo', headers: bearer })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/busi/web/k12/dataCenter/school', headers: bearer })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/busi/web/k12/dataCenter/screenLink', headers: bearer, payload: { name: 'x', playlist } })).statusCode).toBe(401);
    // Organisation hints in the request are ignored: the link names its organisation.
    const moved = data<WallSceneAnswer>(await t.request({ url: `/api/screen/${link.token}/scene/schoolOverview?orgId=${uniId}`, headers: { orgid: uniId } }));
    expect(moved.scope.orgId).toBe(k12Id);
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      expect((await t.request({ method, url: `/api/screen/${link.token}/config` })).statusCode).toBe(404);
    }
    expect((await t.request({ url: '/api/screen/not-a-token/config' })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/screen/not-a-token/config' })).json().msg).toBe('大屏链接无效，请联系管理员获取新的链接');
  });

  it('revoked links are refused with a translated message', async () => {
    const other = data<ScreenLinkCreated>(await create('k12', 'school01', { name: '走廊', playlist: { scenes: ['gradeComparison'] } }));
    expect(other.playlist).toEqual({ scenes: ['gradeComparison'], intervalSeconds: 20, refreshSeconds: 300 });
    expect((await t.request({ url: `/api/screen/${other.token}/scene/gradeComparison` })).statusCode).toBe(200);
    const del = await t.request({ method: 'DELETE', url: `/api/busi/web/k12/dataCenter/screenLink/${other.id}`, token: tokens.school01 });
    expect(del.statusCode).toBe(200);
    expect(data<ScreenLinkRow>(del).revokedAt).not.toBeNull();
    const refused = await t.request({ url: `/api/screen/${other.token}/config`, headers: { 'accept-language': 'en-US' } });
    expect(refused.statusCode).toBe(410);
    expect(refused.json()).toEqual({ code: '410', data: null, msg: 'This screen link has been revoked. Ask an administrator for a new link.' });
    expect((await t.request({ url: `/api/screen/${other.token}/scene/gradeComparison`, headers: { 'accept-language': 'zh-TW' } })).json().msg).toBe(
      '此大屏連結已被停用，請聯絡管理員取得新的連結',
    );
    // Revoking again is harmless; the first link still works.
    expect((await t.request({ method: 'DELETE', url: `/api/busi/web/k12/dataCenter/screenLink/${other.id}`, token: tokens.school01 })).statusCode).toBe(200);
    expect((await t.request({ url: `/api/screen/${link.token}/config` })).statusCode).toBe(200);
    // The operation log has the link's creation and one revocation, never its token.
    const logged = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'screenLink'), eq(auditLogs.entityId, other.id)));
    expect(logged.map((r) => r.action).sort()).toEqual(['create', 'revoke']);
    expect(JSON.stringify(logged)).not.toContain(other.token);
  });

  it('need the administrators’ code and stay within the organisation', async () => {
    expect((await create('k12', 'teacher01', { name: '教师', playlist })).statusCode).toBe(403);
    expect((await t.request({ url: '/api/busi/web/k12/dataCenter/screenLink', token: tokens.teacher01 })).statusCode).toBe(403);
    const foreign = await create('k12', 'school01', { name: '别校', orgId: uniId, playlist });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().msg).toBe('只能为本单位或下属学校创建大屏链接');
    // The university cannot revoke or list the school's links.
    expect((await t.request({ method: 'DELETE', url: `/api/busi/web/gx/dataCenter/screenLink/${link.id}`, token: tokens.college01 })).statusCode).toBe(404);
    const gxList = data<ScreenLinkRow[]>(await t.request({ url: '/api/busi/web/gx/dataCenter/screenLink', token: tokens.college01 }));
    expect(gxList.map((l) => l.id)).not.toContain(link.id);
    // A bureau creates links for its schools and sees theirs.
    const bureau = await create('admin', 'district01', { name: '大学大屏', orgId: uniId, playlist: { scenes: ['schoolOverview'] } });
    expect(bureau.statusCode, bureau.body).toBe(200);
    const scene = data<WallSceneAnswer>(await t.request({ url: `/api/screen/${data<ScreenLinkCreated>(bureau).token}/scene/schoolOverview` }));
    expect(scene.scope.orgId).toBe(uniId);
    const adminList = data<ScreenLinkRow[]>(await t.request({ url: '/api/busi/web/admin/dataCenter/screenLink', token: tokens.district01 }));
    expect(adminList.map((l) => l.id)).toEqual(expect.arrayContaining([link.id, data<ScreenLinkCreated>(bureau).id]));
  });

  it('validate the playlist with translated messages', async () => {
    const bad = await create('k12', 'school01', { name: 'x', playlist: { scenes: ['schoolOverview'], intervalSeconds: 2 } }, { 'accept-language': 'en-US' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('The rotation interval must be a whole number of seconds from 5 to 600.');
    expect((await create('k12', 'school01', { name: 'x', playlist: { scenes: [] } })).json().msg).toBe('请至少选择一个大屏画面');
    expect((await create('k12', 'school01', { name: 'x', playlist: { scenes: ['schoolOverview', 'schoolOverview'] } })).json().msg).toBe('大屏画面不能重复');
    expect((await create('k12', 'school01', { name: '', playlist })).json().msg).toBe('链接名称须为1至50个字符');
  });
});
