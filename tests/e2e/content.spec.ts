import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { choose, chooseLoginLanguage, clickRowAction, shot, signIn } from './support';

const picture = async (background: string, width = 800, height = 300) => ({
  name: `${background.slice(1)}.png`,
  mimeType: 'image/png',
  buffer: await sharp({ create: { width, height, channels: 3, background } }).png().toBuffer(),
});

async function signedIn(page: Page, account: string, family: string, language?: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  if (language) await chooseLoginLanguage(page, language);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/(${family}|myInfo)/`));
}

/** The upload finished: the stored image shows and no progress bar is left (a pending upload shows its preview too). */
async function uploaded(scope: Locator) {
  await expect(scope.getByRole('progressbar')).toHaveCount(0);
  await expect(scope.locator('[data-slot=upload] img').first()).toBeVisible();
}

async function addBanner(page: Page, title: string, color: string, link: string) {
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('banner-form');
  await form.getByLabel('标题').fill(title);
  await form.getByLabel('链接').fill(link);
  await form.locator('input[type=file]').setInputFiles(await picture(color));
  await uploaded(form);
  await form.getByTestId('form-save').click();
  await expect(page.getByTestId('banner-list')).toBeVisible();
}

/** The district orders its login banners; the login screen's carousel follows the new order. */
test('banners: add, refuse a bad link, reorder, and the login carousel changes', async ({ page }) => {
  await signedIn(page, 'district01', 'admin');
  await page.goto('/busi/admin/banner/bannerConfig');
  const list = page.getByTestId('banner-list');
  await expect(list).toBeVisible();

  await page.getByTestId('list-add').click();
  const form = page.getByTestId('banner-form');
  await form.getByLabel('标题').fill('春季运动会');
  await form.getByLabel('链接').fill('www.example.com');
  await form.getByTestId('form-save').click();
  await expect(form).toContainText('链接必须以http或https开头');
  await shot(page, 'content-banner-form-zh_cn');
  await page.goto('/busi/admin/banner/bannerConfig');

  await addBanner(page, '春季运动会', '#1d4ed8', 'https://example.com/meet');
  await addBanner(page, '阳光体育大课间', '#059669', 'https://example.com/break');
  await expect(list.getByRole('row')).toHaveCount(3);
  await expect(list.getByTestId('banner-up').first()).toBeDisabled();
  // Reordering stays one click away; the other actions are in the row's "更多" menu.
  const first = list.getByRole('row').nth(1).locator('[data-slot=row-actions]');
  await expect(first.getByRole('button')).toHaveText(['上移', '下移', '更多']);
  await first.getByTestId('row-more').click();
  await expect(page.getByTestId('row-more-menu').getByRole('menuitem')).toHaveText(['详情', '编辑', '停用', '删除']);
  await page.keyboard.press('Escape');
  await shot(page, 'content-banner-list-zh_cn');

  // Move the second up: it becomes first.
  await list.getByRole('row', { name: /阳光体育大课间/ }).getByTestId('banner-up').click();
  await expect(list.getByRole('row').nth(1)).toContainText('阳光体育大课间');
  await clickRowAction(list.getByRole('row').nth(1), 'banner-detail');
  await expect(page.getByTestId('banner-preview')).toBeVisible();
  await shot(page, 'content-banner-detail-zh_cn');

  await page.evaluate(() => localStorage.clear());
  await page.goto('/busi/');
  const carousel = page.getByTestId('login-carousel');
  await expect(carousel).toBeVisible();
  await expect(carousel.locator('[data-testid=carousel-slide][data-active]')).toContainText('阳光体育大课间');
  await expect(carousel.locator('[data-testid=carousel-slide]').nth(1)).toContainText('春季运动会');
  await shot(page, 'content-login-carousel-zh_cn');
});

/** A school writes a wiki entry with an image; the preview shows it rendered, with links made safe. */
test('wiki: write an entry with an image and see it rendered', async ({ page }) => {
  await signedIn(page, 'school01', 'k12');
  await page.goto('/busi/k12/wikiManagement/schoolWiki');
  await expect(page.getByTestId('wiki-list')).toBeVisible();
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('wiki-form');
  await form.getByLabel('词条标题').fill('立定跳远起跳与落地');
  await choose(form.getByLabel('分类'), '运动技能');
  const editor = form.locator('.ProseMirror');
  await editor.click();
  await page.keyboard.type('预摆时两臂前后摆动，起跳时蹬地充分。<script>alert(1)</script>');
  await form.getByTestId('rich-text-image-input').setInputFiles(await picture('#f59e0b', 400, 240));
  await expect(editor.locator('img[data-file-id]')).toBeVisible();
  await shot(page, 'content-wiki-form-zh_cn');
  await form.getByTestId('form-save').click();

  const list = page.getByTestId('wiki-list');
  const entry = list.getByTestId('wiki-open').filter({ hasText: '立定跳远起跳与落地' });
  await expect(entry).toHaveCount(1);
  await shot(page, 'content-wiki-list-zh_cn');
  await entry.click();
  const preview = page.getByTestId('wiki-preview');
  await expect(preview.locator('img[data-file-id]')).toHaveAttribute('src', /^blob:/);
  // Typed markup is text, never a script element.
  await expect(preview).toContainText('<script>alert(1)</script>');
  await expect(preview.locator('script')).toHaveCount(0);
  await shot(page, 'content-wiki-preview-zh_cn');
});

test('content screens in English', async ({ page }) => {
  await signedIn(page, 'school01', 'k12', 'English');
  await page.goto('/busi/k12/banner/bannerConfig/add');
  await expect(page.getByTestId('banner-form')).toBeVisible();
  await page.getByTestId('form-save').click();
  await shot(page, 'content-banner-form-en_us');
  await page.goto('/busi/k12/wikiManagement/schoolWiki/add');
  await expect(page.getByTestId('rich-text-editor')).toBeVisible();
  await page.getByTestId('form-save').click();
  await shot(page, 'content-wiki-form-en_us');
  await page.goto('/busi/k12/banner/bannerConfig');
  const list = page.getByTestId('banner-list');
  await expect(list).toBeVisible();
  // One banner, so the list shows its row actions in English: Move up and Move down, then More.
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('banner-form');
  await form.getByLabel('Title').fill('Sports day');
  await form.locator('input[type=file]').setInputFiles(await picture('#1d4ed8'));
  await uploaded(form);
  await form.getByTestId('form-save').click();
  await expect(list.getByRole('row')).toHaveCount(2);
  await expect(list.getByRole('row').nth(1).locator('[data-slot=row-actions]').getByRole('button')).toHaveText(['Move up', 'Move down', 'More']);
  await shot(page, 'content-banner-list-en_us');
});

/** A school browses the district's library and copies a resource into its own list. */
test('lesson resources: copy from the library', async ({ page }) => {
  await signedIn(page, 'school01', 'k12');
  await page.goto('/busi/k12/lessonAssistant/lessonResourceList');
  await expect(page.getByTestId('lesson-list')).toContainText('五年级立定跳远单元教案');
  await shot(page, 'content-lesson-list-zh_cn');
  await page.goto('/busi/k12/lessonAssistant/lessonResourceList?view=library');
  const library = page.getByTestId('lesson-library');
  const row = library.getByRole('row', { name: /区级示范课：50米快速跑/ });
  await row.getByTestId('lesson-copy').click();
  await expect(row).toContainText('已复制');
  await shot(page, 'content-lesson-library-zh_cn');
  await page.goto('/busi/k12/lessonAssistant/lessonResourceList/add');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('lesson-form')).toContainText('请填写资源标题');
  await shot(page, 'content-lesson-form-zh_cn');
});

/** A valid MP4 start (an `ftyp` box of brand isom, which the type-by-content check looks for) padded to `size` bytes. */
async function mp4File(size: number): Promise<string> {
  const path = join(tmpdir(), `tiyu-e2e-lesson-${process.pid}.mp4`);
  const head = Buffer.alloc(32);
  head.writeUInt32BE(32, 0);
  head.write('ftypisom', 4, 'latin1');
  head.writeUInt32BE(0x200, 12);
  head.write('isomiso2avc1mp41', 16, 'latin1');
  const file = await open(path, 'w');
  await file.write(head);
  await file.truncate(size);
  await file.close();
  return path;
}

/**
 * The district publishes a library resource with a cover and a 100 MB lesson video sent over tus; the connection drops
 * in the middle (one PATCH aborted) and the upload resumes from the server's offset and finishes. A school sees the
 * cover in its library and copies the resource, cover included.
 */
test('lesson resources: a 100 MB video survives a dropped connection; the library shows the cover', async ({ page, browser }) => {
  test.slow();
  const video = await mp4File(100 * 1024 * 1024);
  try {
    await signedIn(page, 'district01', 'admin');
    await page.goto('/busi/admin/lessonAssistant/resourceList/add');
    const form = page.getByTestId('lesson-form');
    await form.getByLabel('资源标题').fill('区级示范课：跳绳技巧');
    await choose(form.getByLabel('年级'), 2);
    await form.getByLabel('项目/主题').fill('跳绳');
    const inputs = form.locator('input[type=file]');
    await inputs.nth(0).setInputFiles(await picture('#0ea5e9', 400, 300));
    await uploaded(form);

    // The 6th PATCH (of 13 chunks of 8 MB) loses its connection; tus asks the server for the offset and goes on.
    let patches = 0;
    let dropped = false;
    const tus = '**/api/uc/oss/files/tus/*';
    await page.route(tus, async (route) => {
      if (route.request().method() === 'PATCH' && ++patches === 6) {
        dropped = true;
        await route.abort('connectionreset');
        return page.unroute(tus);
      }
      return route.continue();
    });
    const resumed = page.waitForRequest((r) => dropped && r.method() === 'HEAD' && r.url().includes('/files/tus/'));
    await inputs.nth(1).setInputFiles(video);
    await expect(form.getByRole('progressbar', { name: /\.mp4/ })).toBeVisible();
    await resumed;
    await expect(form.getByRole('progressbar')).toHaveCount(0, { timeout: 150_000 });
    await expect(form.locator('[data-slot=upload]').nth(1)).toContainText('.mp4');
    await shot(page, 'content-lesson-video-uploaded-zh_cn');
    await form.getByTestId('form-save').click();
    await expect(page.getByTestId('lesson-list')).toContainText('区级示范课：跳绳技巧');
    expect(dropped).toBe(true);
  } finally {
    await rm(video, { force: true });
  }

  const school = await browser.newPage();
  try {
    await signedIn(school, 'school01', 'k12');
    await school.goto('/busi/k12/lessonAssistant/lessonResourceList?view=library');
    const row = school.getByTestId('lesson-library').getByRole('row', { name: /区级示范课：跳绳技巧/ });
    await expect(row.locator('img')).toHaveAttribute('src', /^blob:/);
    await shot(school, 'content-lesson-library-covers-zh_cn');
    await row.getByTestId('lesson-copy').click();
    await expect(row).toContainText('已复制');
    await school.goto('/busi/k12/lessonAssistant/lessonResourceList');
    const own = school.getByTestId('lesson-list').getByRole('row', { name: /区级示范课：跳绳技巧/ });
    await expect(own.locator('img')).toHaveAttribute('src', /^blob:/);
  } finally {
    await school.close();
  }
});
