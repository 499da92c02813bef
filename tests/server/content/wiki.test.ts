import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { WIKI_TEXT_MAX, type WikiEntry, type WikiRow } from '@/domain/content/wiki';
import { filePaths } from '@/domain/uploads/stored-file';
import { wikiEntries } from '../../../server/db/schema/content';
import { createTestApp, type TestApp } from '../../support/server-app';
import { png } from '../files/fixtures';
import { contentClient } from './content-fixtures';

let t: TestApp;
let c: ReturnType<typeof contentClient>;
let imageId: string;
let coverId: string;

beforeAll(async () => {
  t = await createTestApp();
  c = contentClient(t);
  imageId = (await c.upload('school01', 'image', 'jump.png', await png(200, 100))).id;
  coverId = (await c.upload('school01', 'cover', 'cover.png', await png(120, 120))).id;
});
afterAll(async () => {
  await t?.close();
});

const base = 'k12/wikiManagement/schoolWiki';
const img = (id: string) => `<img src="${filePaths.content(id)}" data-file-id="${id}" alt="跳绳">`;
const entry = (extra: Record<string, unknown> = {}) => ({ title: '跳绳技巧', category: 'skills', coverFileId: coverId, content: '<p>双脚跳</p>', published: false, ...extra });

/** Payloads that must never survive: each is stored and shown without its script, handler or dangerous URL. */
const XSS: string[] = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle r="5"/></svg>',
  '<a href="javascript:alert(1)">点我</a>',
  '<a href="JaVaScRiPt:alert(1)">点我</a>',
  '<a href="&#106;avascript:alert(1)">点我</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">点我</a>',
  '<a href="vbscript:msgbox(1)">点我</a>',
  '<iframe src="https://evil.example/"></iframe>',
  '<p style="background:url(javascript:alert(1))" onmouseover="alert(1)">悬停</p>',
  '<details open ontoggle=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<form action="https://evil.example"><input name=x autofocus onfocus=alert(1)></form>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<video src="https://evil.example/x.mp4" onerror=alert(1)></video>',
  '<img src="https://evil.example/track.png">',
  '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<p>ok</p><!--<img src=x onerror=alert(1)>-->',
  '<link rel=stylesheet href="https://evil.example/x.css"><style>*{}</style>',
];
const DANGEROUS = /<script|<iframe|<object|<embed|<svg|<form|<input|<style|<link|<meta|<base|\son\w+=|javascript:|vbscript:|data:text|evil\.example|src="x"/i;

describe('school wiki', () => {
  it('stores and shows every XSS payload without script, handlers or dangerous URLs; allowed markup and own images stay', async () => {
    for (const payload of XSS) {
      // The allowed markup comes first: an unclosed payload may swallow what follows it (and is dropped with it).
      const content = `<p>正文</p><h2>小标题</h2>${img(imageId)}<a href="https://example.com/rules">规则</a>${payload}`;
      const saved = await c.data<WikiEntry>(c.call('POST', base, 'school01', entry({ content })));
      expect(saved.content, payload).not.toMatch(DANGEROUS);
      const [row] = await t.db.select({ content: wikiEntries.content }).from(wikiEntries).where(eq(wikiEntries.id, saved.id));
      expect(row.content, payload).not.toMatch(DANGEROUS);
      expect(row.content).toContain('<h2>小标题</h2>');
      expect(row.content).toContain(`src="${filePaths.content(imageId)}"`);
      expect(row.content).toContain('<a href="https://example.com/rules" target="_blank" rel="noopener noreferrer">规则</a>');
      const shown = await c.data<WikiEntry>(c.call('GET', `${base}/${saved.id}`, 'school01'));
      expect(shown.content, payload).not.toMatch(DANGEROUS);
    }
  });

  it('sanitises again on show: a row written around the service is made safe when answered', async () => {
    const saved = await c.data<WikiEntry>(c.call('POST', base, 'school01', entry({ title: '旧数据' })));
    await t.db.update(wikiEntries).set({ content: '<p onclick="alert(1)">旧</p><script>alert(1)</script><a href="javascript:alert(1)">x</a>' }).where(eq(wikiEntries.id, saved.id));
    const shown = await c.data<WikiEntry>(c.call('GET', `${base}/${saved.id}`, 'school01'));
    expect(shown.content).not.toMatch(DANGEROUS);
    expect(shown.content).toContain('旧');
  });

  it('refuses text over the word limit with the product’s message, and images that are not the school\'s files', async () => {
    const long = `<p>${'字'.repeat(WIKI_TEXT_MAX + 1)}</p>`;
    await c.refused(c.call('POST', base, 'school01', entry({ content: long })), 400, '内容文字超出字数限制（最多20000字）', 'content');
    // Markup does not count: exactly the limit in text passes.
    await c.data<WikiEntry>(c.call('POST', base, 'school01', entry({ title: '刚好', content: `<p><strong>${'字'.repeat(WIKI_TEXT_MAX)}</strong></p>` })));
    await c.refused(c.call('POST', base, 'school01', entry({ content: '<p>  </p>' }), 'en-US'), 400, 'Enter the entry text', 'content');
    const foreign = (await c.upload('school02', 'image', 'x.png', await png(50, 50))).id;
    await c.refused(c.call('POST', base, 'school01', entry({ content: `<p>图</p>${img(foreign)}` })), 400, undefined, 'content');
    // A cover must be 1:1 (purpose cover): an image uploaded for the text is not a cover.
    await c.refused(c.call('POST', base, 'school01', entry({ coverFileId: imageId })), 400, undefined, 'coverFileId');
    await c.refused(c.call('POST', base, 'school01', entry({ title: 'x'.repeat(51) })), 400, '词条标题不能超过50个字符', 'title');
  });

  it('publishes and takes back; lists filter by state and category; other schools get 404', async () => {
    const saved = await c.data<WikiEntry>(c.call('POST', base, 'school01', entry({ title: '田径规则', category: 'rules' })));
    expect(saved.published).toBe(false);
    const published = await c.data<WikiRow>(c.call('PUT', `${base}/${saved.id}/publish`, 'school01', { published: true, version: saved.version }));
    expect(published.published).toBe(true);
    expect(published.publishedAt).not.toBeNull();
    await c.refused(c.call('PUT', `${base}/${saved.id}/publish`, 'school01', { published: false, version: saved.version }), 409);
    const live = await c.data<Page<WikiRow>>(c.call('GET', `${base}/page?state=published&category=rules`, 'school01'));
    // The demo seed has a published rules entry too.
    expect(live.records.map((r) => r.title)).toEqual(['田径规则', '50米跑常见犯规']);
    const back = await c.data<WikiRow>(c.call('PUT', `${base}/${saved.id}/publish`, 'school01', { published: false, version: published.version }));
    expect(back.publishedAt).toBeNull();
    await c.refused(c.call('GET', `${base}/${saved.id}`, 'school02'), 404);
    await c.refused(c.call('PUT', `${base}/${saved.id}/publish`, 'school02', { published: true, version: back.version }), 404);
    await c.refused(c.call('DELETE', `${base}/${saved.id}`, 'school02'), 404);
    expect((await c.data<Page<WikiRow>>(c.call('GET', `${base}/page`, 'school02'))).total).toBe(0);
    // The university has its own wiki under /gx.
    expect((await c.data<Page<WikiRow>>(c.call('GET', 'gx/wikiManagement/schoolWiki/page', 'college01'))).total).toBe(0);
    await c.data(c.call('DELETE', `${base}/${saved.id}`, 'school01'));
    await c.refused(c.call('GET', `${base}/${saved.id}`, 'school01'), 404);
  });
});
