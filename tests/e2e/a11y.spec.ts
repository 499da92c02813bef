import { expect, test, type Browser, type Page, type Request } from '@playwright/test';
import { axeProblems, clickRowAction, signIn } from './support';

/**
 * Accessibility of every screen that exists: axe with the WCAG 2.1 A and AA rules, no serious or critical violation.
 * One line per screen: the demo account that opens it, the path, and for pages reached through an id the clicks
 * that lead there from a list. New screens are one more line.
 */
type Account = 'district01' | 'school01' | 'teacher01' | 'college01';

interface Screen {
  account: Account | null;
  path: string;
  /** Clicks from `path` to the screen under test (a detail, an edit form), when it needs an id. */
  open?: (page: Page) => Promise<void>;
  /** `open` shows a dialog over the same address (e.g. a list's upload dialog) instead of going to another. */
  dialog?: boolean;
}

/** Names a step for the test's title. */
const step = (name: string, run: (page: Page) => Promise<void>) => Object.defineProperty(run, 'name', { value: name });
const clickFirst = (testId: string) =>
  step(`click ${testId}`, async (page) => {
    await page.getByTestId(testId).first().click();
  });
const firstRow = (list: string) =>
  step(`${list} first row`, async (page) => {
    await page.getByTestId(list).locator('[data-slot=data-table-row]').first().click();
  });
/** The first row's n-th action button (0: edit, on the management lists). */
const rowAction = (list: string, n = 0) =>
  step(`${list} row action ${n}`, async (page) => {
    await page.getByTestId(list).locator('[data-slot=row-actions]').first().getByRole('button').nth(n).click();
  });
const editFirst = (list: string) => rowAction(list, 0);
/** The first row offering the action (a button, or an item of the row's "更多" menu), by its test id. */
const firstRowAction = (testId: string) =>
  step(`first row ${testId}`, async (page) => {
    const rows = page.locator('[data-slot=data-table-row]');
    await clickRowAction(rows.filter({ has: page.locator(`[data-testid=${testId}], [data-testid=row-more]`) }).first(), testId);
  });
/** The relay team form of the demo autumn meet, with one runner picked. */
const teamForm = step('relay team form', async (page) => {
  await page.getByTestId('meet-picker').getByRole('row', { name: /2026年秋季运动会/ }).getByRole('button').first().click();
  await page.getByTestId('list-addTeam').click();
  await page.getByTestId('team-picker').click();
  await page.getByTestId('picker-option').first().click();
  await expect(page.getByTestId('team-leg')).toHaveCount(1);
});
/** Issues the first device's API secret (confirming), which opens the dialog showing it once. */
const issueSecret = step('issue a device secret', async (page) => {
  await page.getByTestId('row-secret-issue').first().click();
  await page.getByRole('alertdialog').getByRole('button').last().click();
  await expect(page.getByTestId('device-secret-dialog')).toBeVisible();
});
const rolloverStep = (to: 'preview' | 'confirm') =>
  step(`rollover ${to}`, async (page) => {
    await page.getByTestId('list-rollover').click();
    for (const at of ['preview', 'confirm'] as const) {
      await page.getByTestId('rollover-next').click();
      await expect(page.getByTestId(`rollover-step-${at}`)).toBeVisible();
      if (at === to) return;
    }
  });
const reportFromSearch = async (page: Page) => {
  await page.getByTestId('score-filter-search').click();
  await page.getByTestId('result-report').first().click();
};
/** The demo contest's data screen, then the first entry's invalid dialog (with its required reason). */
const contestEntryInvalid = step('contest entry invalid', async (page) => {
  await firstRowAction('row-data')(page);
  await page.getByTestId('contest-entries').getByTestId('row-invalid').first().click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
});
const wallLink = async (page: Page) => {
  await page.getByTestId('screen-links-open').click();
  const dialog = page.getByTestId('screen-links-dialog');
  await dialog.getByTestId('screen-link-name').fill('a11y');
  await dialog.getByTestId('screen-link-submit').click();
  const url = await dialog.getByTestId('screen-link-url').inputValue();
  await page.goto(url);
};
/** The first meet's live board (the score picker's second row action), then its wall links dialog. */
const boardLinks = step('meet board links', async (page) => {
  await rowAction('meet-picker', 1)(page);
  await page.getByTestId('board-links-open').click();
});
/** A result of the demo spring meet about to be set invalid: the list kit's validity dialog with its reason box. */
const meetResultInvalid = step('meet result invalid', async (page) => {
  await page.getByTestId('meet-picker').getByRole('row', { name: /2026年春季田径运动会/ }).getByRole('button', { name: '成绩录入' }).click();
  await page.getByTestId('result-invalidate').first().click();
});
/** A meet board link opened on the wall. */
const boardWall = async (page: Page) => {
  await boardLinks(page);
  const dialog = page.getByTestId('board-links-dialog');
  await dialog.getByTestId('board-link-name').fill('a11y');
  await dialog.getByTestId('board-link-submit').click();
  await page.goto(await dialog.getByTestId('screen-link-url').inputValue());
};

/**
 * Every menu page that renders a screen for a demo account, with its forms and details. A new screen is one row:
 * `{ account, path }`, plus `open` when the screen is reached through an id (e.g. `open: editFirst('device-list')`).
 */
const SCREENS: Screen[] = [
  { account: null, path: '/' },
  // My info.
  { account: 'school01', path: '/myInfo/base' },
  { account: 'school01', path: '/myInfo/editUser' },
  { account: 'school01', path: '/myInfo/editAccount' },
  // Data centre, k12 and gx.
  { account: 'school01', path: '/k12/dataCenter/school' },
  { account: 'school01', path: '/k12/dataCenter/grade' },
  { account: 'school01', path: '/k12/dataCenter/class' },
  { account: 'school01', path: '/k12/dataCenter/class', open: firstRow('dc-class-list') },
  { account: 'school01', path: '/k12/dataCenter/student' },
  { account: 'school01', path: '/k12/dataCenter/student', open: firstRow('dc-student-list') },
  { account: 'college01', path: '/gx/dataCenter/school' },
  { account: 'college01', path: '/gx/dataCenter/college' },
  { account: 'college01', path: '/gx/dataCenter/class' },
  { account: 'college01', path: '/gx/dataCenter/class', open: firstRow('dc-class-list') },
  { account: 'college01', path: '/gx/dataCenter/student' },
  { account: 'college01', path: '/gx/dataCenter/student', open: firstRow('dc-student-list') },
  // Wall display (public by its token; the link is made by the school administrator).
  { account: 'school01', path: '/k12/dataCenter/school', open: wallLink },
  // Test plans, scores, records, the report.
  { account: 'teacher01', path: '/k12/organizeTest/testManage' },
  { account: 'teacher01', path: '/k12/organizeTest/testManage/add' },
  { account: 'teacher01', path: '/k12/organizeTest/testManage', open: clickFirst('plan-name') },
  { account: 'district01', path: '/admin/organizeTest/testManage' },
  { account: 'district01', path: '/admin/organizeTest/testManage/add' },
  { account: 'college01', path: '/gx/organizeTest/testManage' },
  { account: 'teacher01', path: '/k12/organizeTest/scoreSearch' },
  { account: 'teacher01', path: '/k12/organizeTest/scoreSearch', open: reportFromSearch },
  { account: 'district01', path: '/admin/organizeTest/scoreSearch' },
  // 中考体育 conversion tables: the list, the add form (a dialog with the steps), the import dialog.
  { account: 'district01', path: '/admin/physiqueManage/conversion' },
  { account: 'district01', path: '/admin/physiqueManage/conversion', open: clickFirst('list-add'), dialog: true },
  { account: 'district01', path: '/admin/physiqueManage/conversion', open: clickFirst('list-import'), dialog: true },
  { account: 'college01', path: '/gx/organizeTest/scoreSearch' },
  { account: 'school01', path: '/k12/physiqueManage/testResult' },
  { account: 'school01', path: '/k12/physiqueManage/retest' },
  { account: 'school01', path: '/k12/physiqueManage/retest', open: clickFirst('list-add'), dialog: true },
  { account: 'college01', path: '/gx/physiqueManage/retest' },
  { account: 'school01', path: '/k12/selfTest/testRecord' },
  { account: 'district01', path: '/admin/selfTest/testRecord' },
  { account: 'college01', path: '/gx/selfTest/testRecord' },
  // The district's schools side by side; sign-in and operation logs, online sessions.
  { account: 'district01', path: '/admin/dataCenter/overview' },
  { account: 'school01', path: '/k12/system/signInLog' },
  { account: 'school01', path: '/k12/system/operationLog' },
  { account: 'school01', path: '/k12/system/onlineSession' },
  // The daily console's notices, dictionaries and message centre; the data-protection screens.
  { account: 'district01', path: '/admin/system/notice' },
  { account: 'district01', path: '/admin/system/notice/add' },
  { account: 'school01', path: '/myInfo/messages' },
  { account: 'school01', path: '/k12/system/dictionary' },
  { account: 'school01', path: '/k12/system/security' },
  { account: 'school01', path: '/myInfo/security' },
  { account: 'teacher01', path: '/myInfo/exports' },
  { account: 'school01', path: '/k12/system/sensitiveLog' },
  { account: 'school01', path: '/k12/system/accessLog' },
  { account: 'school01', path: '/k12/system/exportApproval' },
  { account: 'district01', path: '/admin/system/retention' },
  { account: 'school01', path: '/k12/system/consent' },
  { account: 'college01', path: '/gx/system/dataRequest' },
  // Own organisation and the organisation tree.
  { account: 'district01', path: '/admin/currentOrg' },
  { account: 'district01', path: '/admin/currentOrg', open: clickFirst('current-org-edit') },
  { account: 'district01', path: '/admin/orgManage/orgInfo' },
  { account: 'district01', path: '/admin/orgManage/orgInfo/add' },
  { account: 'school01', path: '/k12/currentOrg' },
  { account: 'school01', path: '/k12/currentOrg', open: clickFirst('current-org-edit') },
  { account: 'college01', path: '/gx/currentOrg' },
  // School years, grades, classes, colleges, majors; k12 and gx.
  { account: 'school01', path: '/k12/org/acayear' },
  { account: 'school01', path: '/k12/org/acayear/add' },
  { account: 'school01', path: '/k12/org/acayear', open: editFirst('school-year-list') },
  { account: 'school01', path: '/k12/org/acayear/rollover' },
  // The rollover's preview and confirm steps, reached from the school-year list's button.
  { account: 'school01', path: '/k12/org/acayear', open: rolloverStep('preview') },
  { account: 'school01', path: '/k12/org/acayear', open: rolloverStep('confirm') },
  { account: 'school01', path: '/k12/org/grade' },
  { account: 'school01', path: '/k12/org/grade/add' },
  { account: 'school01', path: '/k12/org/grade', open: editFirst('grade-list') },
  { account: 'school01', path: '/k12/org/class' },
  { account: 'school01', path: '/k12/org/class/add' },
  { account: 'school01', path: '/k12/org/class', open: editFirst('class-list') },
  { account: 'college01', path: '/gx/org/acayear' },
  { account: 'college01', path: '/gx/org/acayear', open: rolloverStep('preview') },
  { account: 'college01', path: '/gx/org/grade' },
  { account: 'college01', path: '/gx/org/college' },
  { account: 'college01', path: '/gx/org/college/addEdit' },
  { account: 'college01', path: '/gx/org/college', open: editFirst('college-list') },
  { account: 'college01', path: '/gx/org/major' },
  { account: 'college01', path: '/gx/org/major/addEdit' },
  { account: 'college01', path: '/gx/org/major', open: editFirst('major-list') },
  { account: 'college01', path: '/gx/org/class' },
  { account: 'college01', path: '/gx/org/class/add' },
  // Roles.
  { account: 'school01', path: '/k12/role' },
  { account: 'school01', path: '/k12/role/add' },
  { account: 'school01', path: '/k12/role', open: editFirst('role-list') },
  { account: 'school01', path: '/k12/role', open: rowAction('role-list', 1) },
  { account: 'district01', path: '/admin/role' },
  { account: 'college01', path: '/gx/role' },
  // Organisations below the district, departments, users
  { account: 'district01', path: '/admin/orgManage/orgInfo', open: rowAction('org-list', 0) },
  { account: 'district01', path: '/admin/orgManage/orgInfo', open: rowAction('org-list', 1) },
  { account: 'district01', path: '/admin/departmentManage' },
  { account: 'district01', path: '/admin/departmentManage/add' },
  { account: 'district01', path: '/admin/departmentManage', open: editFirst('department-list') },
  { account: 'district01', path: '/admin/departmentManage', open: rowAction('department-list', 1) },
  { account: 'district01', path: '/admin/user' },
  { account: 'district01', path: '/admin/user/add' },
  { account: 'district01', path: '/admin/user', open: editFirst('user-list') },
  // Staff.
  { account: 'school01', path: '/k12/user/teacher' },
  { account: 'school01', path: '/k12/user/teacher/add' },
  { account: 'school01', path: '/k12/user/teacher', open: editFirst('staff-list') },
  { account: 'college01', path: '/gx/user/teacher' },
  // Devices and venues
  { account: 'school01', path: '/k12/device' },
  { account: 'school01', path: '/k12/device/add' },
  { account: 'school01', path: '/k12/device', open: editFirst('device-list') },
  { account: 'school01', path: '/k12/device', open: issueSecret, dialog: true },
  // In-class practice, test and match
  { account: 'school01', path: '/k12/class/practise' },
  { account: 'school01', path: '/k12/class/match' },
  { account: 'district01', path: '/admin/class/test' },
  { account: 'school01', path: '/k12/place' },
  { account: 'school01', path: '/k12/place/add' },
  { account: 'school01', path: '/k12/place', open: rowAction('venue-list', 0) },
  { account: 'school01', path: '/k12/place', open: rowAction('venue-list', 1) },
  { account: 'college01', path: '/gx/device' },
  { account: 'college01', path: '/gx/place' },
  // Sports meets
  { account: 'school01', path: '/k12/sportsMeet' },
  { account: 'school01', path: '/k12/sportsMeet/add' },
  { account: 'school01', path: '/single/sportsMeet/signUp' },
  { account: 'school01', path: '/single/sportsMeet/score' },
  { account: 'school01', path: '/single/sportsMeet/points' },
  { account: 'school01', path: '/single/sportsMeet/record' },
  { account: 'school01', path: '/single/sportsMeet/record/add' },
  { account: 'school01', path: '/single/sportsMeet/record', open: editFirst('record-list') },
  { account: 'school01', path: '/single/sportsMeet/record', open: clickFirst('list-import'), dialog: true },
  { account: 'school01', path: '/single/sportsMeet/signUp', open: rowAction('meet-picker', 0) },
  { account: 'school01', path: '/single/sportsMeet/score', open: boardLinks, dialog: true },
  { account: 'school01', path: '/single/sportsMeet/score', open: boardWall },
  { account: 'school01', path: '/single/sportsMeet/score', open: meetResultInvalid, dialog: true },

  { account: 'school01', path: '/single/sportsMeet/signUp', open: teamForm },
  { account: 'college01', path: '/gx/sportsMeet' },
  { account: 'school01', path: '/single/sportsMeet/eStamp' },
  { account: 'school01', path: '/single/sportsMeet/eStamp', open: clickFirst('stamp-upload'), dialog: true },
  { account: 'school01', path: '/single/sportsMeet/certificate' },
  { account: 'school01', path: '/single/sportsMeet/certificate/add' },
  { account: 'school01', path: '/k12/sportsMeet', open: firstRowAction('row-demeanor') },
  // Students and parents
  { account: 'school01', path: '/k12/user/student' },
  { account: 'school01', path: '/k12/user/student/add' },
  { account: 'school01', path: '/k12/user/student', open: editFirst('student-list') },
  { account: 'school01', path: '/k12/user/parent' },
  { account: 'school01', path: '/k12/user/parent', open: editFirst('parent-list') },
  { account: 'college01', path: '/gx/user/student' },
  { account: 'school01', path: '/k12/user/student', open: clickFirst('list-facePhotos'), dialog: true },
  { account: 'school01', path: '/k12/user/teacher', open: clickFirst('list-facePhotos'), dialog: true },
  // Exercise records and contests
  { account: 'school01', path: '/k12/exerciseRecord' },
  { account: 'school01', path: '/k12/exerciseRecord', open: clickFirst('row-invalid'), dialog: true },
  { account: 'district01', path: '/admin/exerciseRecord' },
  { account: 'school01', path: '/k12/onlineManagement/competitionRank' },
  { account: 'school01', path: '/k12/onlineManagement/competitionRank/addRank' },
  { account: 'school01', path: '/k12/onlineManagement/competitionRank', open: clickFirst('row-detail') },
  { account: 'school01', path: '/k12/onlineManagement/competitionRank', open: firstRowAction('row-data') },
  { account: 'school01', path: '/k12/onlineManagement/competitionRank', open: firstRowAction('row-end'), dialog: true },
  { account: 'college01', path: '/gx/onlineManagement/competition' },
  { account: 'college01', path: '/gx/onlineManagement/competition/addChallenge' },
  { account: 'college01', path: '/gx/onlineManagement/competition', open: firstRowAction('row-data') },
  { account: 'school01', path: '/k12/onlineManagement/competitionRank', open: contestEntryInvalid, dialog: true },
  // Sports homework and special training
  { account: 'teacher01', path: '/k12/sportsHomework/homeworkManagement', open: clickFirst('row-detail') },
  { account: 'district01', path: '/admin/sportsHomework/homeworkManagement' },
  { account: 'teacher01', path: '/k12/specialTraining/specialTrainingList' },
  { account: 'teacher01', path: '/k12/specialTraining/specialTrainingList/add' },
  { account: 'teacher01', path: '/k12/specialTraining/specialTrainingList', open: clickFirst('row-detail') },
  { account: 'teacher01', path: '/k12/specialTraining/specialTrainingList', open: clickFirst('row-data') },

  // Content: banners, wiki, lesson resources and the resource library
  { account: 'school01', path: '/k12/banner/bannerConfig' },
  { account: 'school01', path: '/k12/banner/bannerConfig/add' },
  { account: 'school01', path: '/k12/wikiManagement/schoolWiki' },
  { account: 'school01', path: '/k12/wikiManagement/schoolWiki/add' },
  { account: 'school01', path: '/k12/wikiManagement/schoolWiki', open: editFirst('wiki-list') },
  { account: 'school01', path: '/k12/lessonAssistant/lessonResourceList' },
  { account: 'school01', path: '/k12/lessonAssistant/lessonResourceList?view=library' },
  { account: 'school01', path: '/k12/lessonAssistant/lessonResourceList/add' },
  { account: 'district01', path: '/admin/lessonAssistant/resourceList' },
  { account: 'district01', path: '/admin/banner/bannerConfig' },
  { account: 'college01', path: '/gx/wikiManagement/schoolWiki' },
  // Menu management (platform operators: the top management organisation's administrators).
  { account: 'district01', path: '/myInfo/base', open: step('header entry to menu management', async (page) => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-menu-management').click();
  }) },
  { account: 'district01', path: '/menuManagement?family=admin', open: clickFirst('menu-edit'), dialog: true },
  // The physique year's pages (their flows and dialogs are checked in their own specs: test-day, exemption, parent-report).
  { account: 'school01', path: '/k12/physiqueManage/testDay' },
  { account: 'college01', path: '/gx/physiqueManage/testDay' },
  { account: 'school01', path: '/k12/physiqueManage/exemption' },
  { account: 'college01', path: '/gx/physiqueManage/exemption' },
  { account: 'school01', path: '/k12/physiqueManage/graduation' },
  { account: 'college01', path: '/gx/physiqueManage/graduation' },
  { account: 'school01', path: '/k12/physiqueManage/warning' },
  { account: 'college01', path: '/gx/physiqueManage/warning' },
  // Lesson load: the lessons with heart-rate data and a lesson's report (the demo's lessons from the simulator).
  { account: 'school01', path: '/k12/class/load' },
  { account: 'school01', path: '/k12/class/load', open: firstRowAction('load-open') },
  // The console frame (docs/product-rules.md#menu-search, #mourning-mode, #lock-screen): the menu search, the operators'
  // mourning dialog; the lock screen is the sweep's last row.
  { account: 'school01', path: '/k12/org/class', open: step('menu search', async (page) => {
    await page.getByTestId('menu-search-open').click();
    await page.getByTestId('menu-search-input').fill('bj');
  }), dialog: true },
  { account: 'district01', path: '/admin/dataCenter/overview', open: step('mourning', async (page) => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-mourning').click();
  }), dialog: true },
  // Lesson load reports: a term's summary (k12, gx) and the district's schools compared.
  { account: 'school01', path: '/k12/class/load/summary' },
  { account: 'college01', path: '/gx/class/load/summary' },
  { account: 'district01', path: '/admin/class/load' },
  // The lesson monitor's list (the live view needs a lesson in progress: tests/e2e/lesson-monitor.spec.ts checks it at 390×844).
  { account: 'school01', path: '/k12/class/monitor' },
  // Last: the lock stays on that account's page.
  { account: 'teacher01', path: '/k12/org/class', open: step('lock screen', async (page) => {
    // The shortcut listens once the frame is drawn.
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await page.keyboard.press('Alt+l');
  }), dialog: true },
];

/**
 * One signed-in page per account for the whole file (its session lives in localStorage), which spares a new renderer
 * per screen (about a second each on the 2-core CI machine), with the requests it has in flight (for `settled`).
 */
interface AccountPage {
  page: Page;
  inFlight: Set<Request>;
  /** Requests seen so far, and when one last started or ended. */
  seen: number;
  lastActivity: number;
  /** The last screen left a dialog open: the next one starts on a fresh document. */
  dirty: boolean;
  /** The path of the last screen when it was checked as shown, nothing clicked: the next one there needs no navigation. */
  leftOn: string | null;
}

const pages = new Map<string, AccountPage>();

async function pageFor(browser: Browser, account: Account | null): Promise<AccountPage> {
  const key = account ?? '';
  const hit = pages.get(key);
  if (hit && !hit.page.isClosed()) return hit;
  const context = await browser.newContext();
  const page = await context.newPage();
  const at: AccountPage = { page, inFlight: new Set(), seen: 0, lastActivity: Date.now(), dirty: false, leftOn: null };
  // As Playwright's own network idle counts them: an event stream stays open and is not waited for.
  page.on('request', (request) => {
    if (request.resourceType() === 'eventsource') return;
    at.inFlight.add(request);
    at.seen++;
    at.lastActivity = Date.now();
  });
  const done = (request: Request) => {
    if (at.inFlight.delete(request)) at.lastActivity = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  if (account) {
    await page.goto('/busi/');
    await signIn(page, account);
    await expect(page).not.toHaveURL(/\/busi\/$/);
  }
  pages.set(key, at);
  return at;
}

/**
 * Opens a screen's path. Inside the already-loaded console it is the router's own navigation (a history entry and
 * its popstate, as the browser's back and forward do: react-router's browser history listens to it), so the bundle,
 * the session and the menu are not loaded again (docs/performance.md, "CI time"). Nothing at all when the last screen
 * was this path, checked as it was shown. A full load for the signed-out page, after a screen that left a dialog open
 * (the shell's dialogs, the menu search, stay over the next screen), from the wall (outside the console), for the
 * path already shown after clicks (the router would keep that screen mounted, with its state, where a load mounts it
 * afresh), and for the data centre's dashboards, so each is checked as a user arriving there sees it (a dashboard shown
 * again inside the page is tests/web/features/data-center/dashboard-chart.test.tsx's case).
 */
async function show(at: AccountPage, account: Account | null, path: string): Promise<void> {
  const { page } = at;
  const target = `/busi${path}`;
  const here = /^https?:/.test(page.url()) ? new URL(page.url()) : null;
  const inConsole = here && here.pathname.startsWith('/busi/') && !/^\/busi\/(wall|m)\//.test(here.pathname);
  if (account && at.leftOn === path && here && here.pathname + here.search === target) return;
  if (!account || at.dirty || !inConsole || here.pathname === new URL(target, here).pathname || path.includes('/dataCenter/')) {
    await page.goto(target);
  } else {
    await page.evaluate((url) => {
      history.pushState(null, '', url);
      dispatchEvent(new PopStateEvent('popstate', { state: null }));
    }, target);
  }
  at.dirty = false;
  at.lastActivity = Date.now();
}

/** How long no request may be in flight before the page counts as quiet (a navigation or a click counts as activity). */
const QUIET_MS = 250;

/**
 * Waits until the screen has its data: no request in flight for QUIET_MS, no table refreshing, no chart drawing, then
 * two frames drawn and a task run in the page (so data that just arrived has been rendered and its effects have run:
 * a request they set off has started by then) with still no new request. Frames rather than wall time: on a loaded
 * machine the page may not run at all for a while. Playwright's 'networkidle' (500 ms of quiet) is a load state of
 * the document: once reached it stays reached, so it never waited after a click or a navigation inside the page.
 */
async function settled(at: AccountPage): Promise<void> {
  const { page } = at;
  const quiet = () => at.inFlight.size === 0 && Date.now() - at.lastActivity >= QUIET_MS;
  for (;;) {
    await expect.poll(quiet, { intervals: [25] }).toBe(true);
    const seen = at.seen;
    await expect(page.locator('[aria-busy=true]')).toHaveCount(0);
    await expect(page.locator('[data-slot=dc-chart][data-finished=false]')).toHaveCount(0);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve)))));
    if (at.seen === seen && at.inFlight.size === 0) return;
  }
}

test.describe('accessibility (axe, WCAG 2.1 AA)', () => {
  test.afterAll(async () => {
    for (const { page } of pages.values()) await page.context().close();
    pages.clear();
  });

  for (const [i, screen] of SCREENS.entries()) {
    const name = `${screen.account ?? 'signed out'} ${screen.path}${screen.open ? ` → ${screen.open.name || 'open'}` : ''}`;
    // Every other row runs on a second server beside the first (playwright.config.ts: the projects a11y and a11y-b).
    test(name, { tag: i % 2 ? '@a11y-b' : '@a11y-a' }, async ({ browser }) => {
      const at = await pageFor(browser, screen.account);
      const { page } = at;
      await show(at, screen.account, screen.path);
      await settled(at);
      at.leftOn = screen.open ? null : screen.path;
      if (screen.open) {
        // Every step ends on another address or an open dialog; wait for it so the check never sees the page it came from.
        const from = page.url();
        at.dirty = Boolean(screen.dialog);
        await screen.open(page);
        if (screen.dialog) await expect(page.getByRole('dialog').or(page.getByRole('alertdialog'))).toBeVisible();
        else await expect(page).not.toHaveURL(from);
        at.lastActivity = Date.now();
        await settled(at);
      }
      const bad = await axeProblems(page);
      expect(bad, `${page.url()}\n${JSON.stringify(bad, null, 2)}`).toEqual([]);
    });
  }
});

/**
 * Keyboard only, focus always visible: the list kit (paging, filter row, a row action's confirm dialog) and the form
 * kit (fields, the back confirm, save) on the class screens.
 */
test('the class list and form work with the keyboard alone, focus visible', async ({ browser }, testInfo) => {
  const { page } = await pageFor(browser, 'school01');
  await page.goto('/busi/k12/org/class');
  const list = page.getByTestId('class-list');
  const rows = list.locator('[data-slot=data-table-row]');
  await expect(rows.first()).toBeVisible();

  /** Tabs (or Shift+Tabs) until the focused element matches; the test does not depend on the exact tab order. */
  const tabUntil = async (source: string, key = 'Tab') => {
    for (let i = 0; i < 150; i++) {
      await page.keyboard.press(key);
      if (await page.evaluate(`(${source})(document.activeElement)`)) return;
    }
    throw new Error(`${key} never reached ${source}`);
  };
  /** The focused element shows it: an outline, or a ring (a box-shadow with a spread, not the resting shadow). */
  const expectFocusVisible = () =>
    expect
      .poll(() =>
        page.evaluate(() => {
          const el = document.activeElement;
          // A message rather than false, so a failure says which element shows no focus.
          if (!el || el === document.body || !el.matches(':focus-visible')) return `not focus-visible: ${el?.outerHTML.slice(0, 200)}`;
          const style = getComputedStyle(el);
          const shown = (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) || /0px 0px 0px [1-9]/.test(style.boxShadow);
          return shown || `no ring: ${el.outerHTML.slice(0, 200)}`;
        }),
      )
      .toBe(true);
  const button = (name: string) => `(el) => el?.tagName === 'BUTTON' && (el.getAttribute('aria-label') ?? el.textContent.trim()) === ${JSON.stringify(name)}`;

  // Paging: the next-page button, then page 1 again.
  await tabUntil(button('下一页'));
  await expectFocusVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/current=2/);
  await expect(page.getByRole('button', { name: '第 2 页' })).toHaveAttribute('aria-current', 'page');
  await tabUntil(button('第 1 页'), 'Shift+Tab');
  await expectFocusVisible();
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/current=2/);

  // Filter by name, then search with Enter on the search button.
  const name = (await rows.first().locator('td').nth(1).innerText()).trim();
  await tabUntil(`(el) => el?.tagName === 'INPUT' && [...(el.labels ?? [])].some((l) => l.textContent.includes('班级名称'))`, 'Shift+Tab');
  await expectFocusVisible();
  await page.keyboard.type(name);
  await tabUntil(button('查询'));
  await expectFocusVisible();
  // The filtered page has arrived and is drawn: its rows replace the old ones, and a row that goes takes the focus (or
  // an open dialog) with it. The answer first: the loading cover only shows once the request has started.
  const filtered = page.waitForResponse((r) => r.url().includes('/org/class/page?') && new URL(r.url()).searchParams.get('name') === name);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/name=/);
  await filtered;
  await expect(list.locator('[data-slot=data-table-loading]')).toHaveCount(0);
  await expect(rows.first()).toContainText(name);

  // A dangerous row action asks first; Escape and the dialog's Cancel both leave the row alone.
  await tabUntil(`(el) => el?.getAttribute('data-testid') === 'row-delete'`);
  await expectFocusVisible();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(name);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('row-delete').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await tabUntil(button('取消'));
  await expectFocusVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(rows.first()).toContainText(name);

  // The row's edit action opens the form.
  await tabUntil(`(el) => el?.getAttribute('data-testid') === 'row-edit'`, 'Shift+Tab');
  await expectFocusVisible();
  await page.keyboard.press('Enter');
  const form = page.getByTestId('class-form');
  await expect(form).toBeVisible();
  await expect(page).toHaveURL(/\/k12\/org\/class\/edit\//);

  // Fields: change the class name.
  await tabUntil(`(el) => el?.tagName === 'INPUT' && el.closest('[data-field=name]')`);
  await expectFocusVisible();
  await page.keyboard.press('ControlOrMeta+a');
  // A retry renames the row again, to a name of its own (the same name would leave the form unchanged).
  const renamed = `${name}K${testInfo.retry || ''}`;
  await page.keyboard.type(renamed);

  // Leaving a changed form asks first; its Cancel keeps the form and what was typed.
  await tabUntil(`(el) => el?.getAttribute('data-testid') === 'form-cancel'`);
  await expectFocusVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('是否返回上一页？');
  await tabUntil(button('取消'));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(form.locator('[data-field=name] input')).toHaveValue(renamed);

  // Save with Enter on the save button.
  await tabUntil(`(el) => el?.getAttribute('data-testid') === 'form-save'`);
  await expectFocusVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/k12\/org\/class(\?|$)/);
  await expect(list.getByRole('cell', { name: renamed })).toBeVisible();
});

/** The import dialog of the people lists: the choose state and the dry run's review (counts, rejected rows, commit). */
test('accessibility: the people import dialog (choose, review)', async ({ page }) => {
  const axe = () => axeProblems(page, '[data-slot="import-dialog"]');
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/user/teacher');
  await expect(page.getByTestId('staff-list')).toBeVisible();
  await page.getByTestId('list-import').click();
  const dialog = page.locator('[data-slot="import-dialog"]');
  await expect(dialog).toBeVisible();
  expect(await axe()).toEqual([]);
  const XLSX = await import('xlsx');
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['姓名', '登录账号', '初始密码', '角色', '性别'], ['甲', 'a11yimport1', 'Start2026', '不存在的角色', '男'], ['乙', 'a11yimport2', '', '', '女']]), 'S');
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'staff.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer });
  await expect(dialog.locator('[data-slot="import-review"]')).toBeVisible();
  expect(await axe()).toEqual([]);
});
