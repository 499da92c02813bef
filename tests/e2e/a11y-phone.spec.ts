import { expect, test, type Browser, type Page } from '@playwright/test';
import { axeProblems, PHONE, signIn } from './support';

/**
 * Accessibility of the field flows on a phone (390 × 844; docs/decisions/054-phone-layout.md): axe with the WCAG 2.1
 * A and AA rules, no serious or critical violation, on the screens a teacher uses on the sports field — a class's
 * roster, a student's report, meet result entry and the live board, the homework video review, a test-day station.
 * The desktop sweep is tests/e2e/a11y.spec.ts.
 */
type Account = 'school01' | 'teacher01';

interface Screen {
  name: string;
  account: Account;
  /** Goes to the screen (API look-ups for ids where the screen needs one). */
  open(page: Page, api: <T>(path: string) => Promise<T>): Promise<void>;
}

const k12 = '/api/busi/web/k12';

const SCREENS: Screen[] = [
  {
    name: "a class's roster",
    account: 'school01',
    open: async (page, api) => {
      const { records } = await api<{ records: { classId: string }[] }>(`${k12}/user/student/page?current=1&size=10`);
      await page.goto(`/busi/k12/user/student?classId=${records[0].classId}`);
      await expect(page.locator('[data-slot=data-table-row]').first()).toBeVisible();
    },
  },
  {
    name: "a student's report",
    account: 'school01',
    open: async (page) => {
      await page.goto('/busi/k12/organizeTest/scoreSearch');
      await page.getByTestId('score-filter-search').click();
      await page.getByTestId('result-report').first().click();
      await expect(page.getByTestId('student-report')).toBeVisible();
    },
  },
  {
    name: 'meet result entry',
    account: 'school01',
    open: async (page, api) => {
      const { records } = await api<{ records: { id: string; name: string }[] }>(`${k12}/sportsMeet/page?current=1&size=20`);
      const meet = records.find((m) => m.name.includes('春季')) ?? records[0];
      await page.goto(`/busi/single/sportsMeet/score/${meet.id}`);
      await expect(page.getByTestId('result-row').first()).toBeVisible();
    },
  },
  {
    name: 'the live board',
    account: 'school01',
    open: async (page, api) => {
      const { records } = await api<{ records: { id: string; name: string }[] }>(`${k12}/sportsMeet/page?current=1&size=20`);
      const meet = records.find((m) => m.name.includes('春季')) ?? records[0];
      await page.goto(`/busi/single/sportsMeet/score/screen/${meet.id}`);
      await expect(page.getByTestId('board')).toBeVisible();
    },
  },
  {
    name: 'the homework video review',
    account: 'teacher01',
    open: async (page) => {
      await page.goto('/busi/k12/sportsHomework/homeworkManagement');
      // The demo's homework in progress, with submissions to review.
      const card = page.locator('[data-slot=data-table-row]').filter({ hasText: '每日跳绳打卡' });
      await card.getByTestId('row-more').click();
      await page.getByTestId('row-more-menu').getByTestId('row-detail').click();
      await page.getByTestId('homework-tab-submissions').click();
      await expect(page.getByRole('tabpanel').locator('[data-slot=data-table-row]').first()).toBeVisible();
    },
  },
  {
    name: 'a test-day station',
    account: 'school01',
    open: async (page, api) => {
      const plans = await api<{ id: string }[]>(`${k12}/physiqueManage/testDay/plans`);
      const { records } = await api<{ records: { id: string }[] }>(`${k12}/physiqueManage/testDay/page?planId=${plans[0].id}&current=1&size=20`);
      await page.goto(`/busi/k12/physiqueManage/testDay/station/${records[0].id}`);
      await expect(page.getByTestId('station-screen')).toBeVisible();
    },
  },
];

const pages = new Map<string, Page>();

async function pageFor(browser: Browser, account: Account): Promise<Page> {
  const hit = pages.get(account);
  if (hit && !hit.isClosed()) return hit;
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  await page.goto('/busi/');
  await signIn(page, account);
  await expect(page).not.toHaveURL(/\/busi\/$/);
  pages.set(account, page);
  return page;
}

// In the second half of the accessibility sweep (playwright.config.ts), which ends first.
test.describe('accessibility of the field flows at 390 × 844 (axe, WCAG 2.1 AA)', { tag: '@a11y-b' }, () => {
  test.afterAll(async () => {
    for (const page of pages.values()) await page.context().close();
    pages.clear();
  });

  for (const screen of SCREENS) {
    test(screen.name, async ({ browser }) => {
      const page = await pageFor(browser, screen.account);
      const api = async <T,>(path: string): Promise<T> => {
        const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string }).access_token);
        const res = await page.request.get(path, { headers: { Authorization: `bearer ${token}` } });
        expect(res.status(), await res.text()).toBe(200);
        return ((await res.json()) as { data: T }).data;
      };
      await screen.open(page, api);
      await page.waitForLoadState('networkidle');
      await expect(page.locator('[aria-busy=true]')).toHaveCount(0);
      const bad = await axeProblems(page);
      expect(bad, `${page.url()}\n${JSON.stringify(bad, null, 2)}`).toEqual([]);
    });
  }
});
