import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { BannerRow, CarouselSlide } from '@/domain/content/banners';
import { filePaths } from '@/domain/uploads/stored-file';
import { auditLogs } from '../../../server/db/schema/audit';
import { createTestApp, type TestApp } from '../../support/server-app';
import { png } from '../files/fixtures';
import { contentClient } from './content-fixtures';

let t: TestApp;
let c: ReturnType<typeof contentClient>;
let image: string;
let schoolOrgId: string;

beforeAll(async () => {
  t = await createTestApp();
  c = contentClient(t);
  image = (await c.upload('school01', 'banner', 'slide.png', await png(320, 120))).id;
  const info = await c.data<{ accounts: { presentFlag: boolean; tenantOrgId: string }[] }>(c.call('GET', 'myInfo/getUInfo', 'school01'));
  schoolOrgId = info.accounts.find((a) => a.presentFlag)!.tenantOrgId;
});
afterAll(async () => {
  await t?.close();
});

const base = 'k12/banner/bannerConfig';
const banner = (extra: Record<string, unknown> = {}) => ({ title: '校运会', position: 'home', imageFileId: image, link: 'https://example.com/meet', enabled: true, ...extra });
const list = async (account = 'school01', position = 'home') =>
  (await c.data<Page<BannerRow>>(c.call('GET', `${base}/page?size=20&position=${position}`, account))).records;

describe('banners', () => {
  it('holds at most five per position: the sixth is refused naming the position, nothing written', async () => {
    for (let i = 1; i <= 5; i++) await c.data<BannerRow>(c.call('POST', base, 'school01', banner({ title: `第${i}张` })));
    const rows = await list();
    expect(rows.map((r) => [r.title, r.sort, r.positionCount])).toEqual([1, 2, 3, 4, 5].map((i) => [`第${i}张`, i, 5]));
    await c.refused(c.call('POST', base, 'school01', banner({ title: '第6张' }), 'en-US'), 400, 'A position holds at most 5 banners', 'position');
    expect(await list()).toHaveLength(5);
    // Another position has its own five.
    await c.data<BannerRow>(c.call('POST', base, 'school01', banner({ title: '登录页', position: 'login' })));
  });

  it('refuses a link that does not start with http or https, in the language of the request', async () => {
    const login = (await list('school01', 'login'))[0];
    for (const link of ['ftp://example.com', 'javascript:alert(1)', 'www.example.com', 'https://']) {
      await c.refused(c.call('PUT', `${base}/${login.id}`, 'school01', banner({ position: 'login', link, version: login.version })), 400, '链接必须以http或https开头', 'link');
    }
    await c.refused(c.call('POST', base, 'school01', banner({ position: 'login', link: 'mailto:a@b.c' }), 'en-US'), 400, 'The link must start with http or https', 'link');
    const saved = await c.data<BannerRow>(c.call('PUT', `${base}/${login.id}`, 'school01', banner({ position: 'login', link: 'HTTP://example.com/a', version: login.version })));
    expect(saved.link).toBe('HTTP://example.com/a');
    const noLink = await c.data<BannerRow>(c.call('PUT', `${base}/${login.id}`, 'school01', banner({ position: 'login', link: '', version: saved.version })));
    expect(noLink.link).toBeNull();
  });

  it('moves a banner up or down within its position, never past the first or last place', async () => {
    let rows = await list();
    await c.refused(c.call('PUT', `${base}/${rows[0].id}/move`, 'school01', { direction: 'up', version: rows[0].version }, 'en-US'), 400, 'This banner is already first and cannot move up');
    await c.refused(c.call('PUT', `${base}/${rows[4].id}/move`, 'school01', { direction: 'down', version: rows[4].version }), 400, '已经是最后一张，不能下移');
    await c.data(c.call('PUT', `${base}/${rows[2].id}/move`, 'school01', { direction: 'up', version: rows[2].version }));
    rows = await list();
    expect(rows.map((r) => r.title)).toEqual(['第1张', '第3张', '第2张', '第4张', '第5张']);
    await c.data(c.call('PUT', `${base}/${rows[0].id}/move`, 'school01', { direction: 'down', version: rows[0].version }));
    expect((await list()).map((r) => r.title)).toEqual(['第3张', '第1张', '第2张', '第4张', '第5张']);
    // A stale version is a 409, nothing moved.
    await c.refused(c.call('PUT', `${base}/${rows[3].id}/move`, 'school01', { direction: 'up', version: rows[3].version - 1 }), 409);
    const audits = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'banner'), eq(auditLogs.action, 'move')));
    expect(audits.length).toBe(2);
  });

  it('shows the enabled banners of a position in order on the public carousel; a disabled one drops out', async () => {
    const rows = await list();
    await c.data(c.call('PUT', `${base}/${rows[1].id}/status`, 'school01', { enabled: false, version: rows[1].version }));
    const res = await t.request({ url: `/api/oper/web/cs/banner/carousel?position=home&orgId=${schoolOrgId}` });
    const slides = res.json<{ data: CarouselSlide[] }>().data;
    expect(slides.map((s) => s.title)).toEqual(['第3张', '第2张', '第4张', '第5张']);
    expect(slides[0]).toMatchObject({ link: 'https://example.com/meet', image: filePaths.publicContent(image) });
    // The image is public: no sign-in needed.
    expect((await t.request({ url: slides[0].image })).statusCode).toBe(200);
    // Deleting closes the gap.
    await c.data(c.call('DELETE', `${base}/${rows[0].id}`, 'school01'));
    expect((await list()).map((r) => r.sort)).toEqual([1, 2, 3, 4]);
  });

  it('keeps banners to their organisation: another school gets 404, a teacher without the page 403', async () => {
    const [row] = await list();
    await c.refused(c.call('GET', `${base}/${row.id}`, 'school02'), 404);
    await c.refused(c.call('PUT', `${base}/${row.id}/status`, 'school02', { enabled: false, version: row.version }), 404);
    await c.refused(c.call('DELETE', `${base}/${row.id}`, 'school02'), 404);
    expect(await list('school02')).toEqual([]);
    await c.refused(c.call('GET', `${base}/page`, 'teacher01'), 403);
    // A file of another organisation cannot be shown as a banner.
    const other = (await c.upload('school02', 'banner', 'x.png', await png(100, 40))).id;
    await c.refused(c.call('POST', base, 'school01', banner({ position: 'login', imageFileId: other })), 400, undefined, 'imageFileId');
    // A district administrator has its own banners, under /admin.
    expect((await c.data<Page<BannerRow>>(c.call('GET', 'admin/banner/bannerConfig/page', 'district01'))).total).toBe(0);
  });
});
