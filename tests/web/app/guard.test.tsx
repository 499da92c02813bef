import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getToasts } from '@/lib/toast';
import { lastPathAtom, saveToken, saveUInfo, store, tokenAtom } from '@/lib/store';
import { decideAccess } from '@/app/routes/access';
import { fakeApi, k12UInfo, renderApp, resetApp } from './fake-api';

// The fixture's menu holds the class and school-year pages, which now have screens; these tests are about the
// not-available page and the shell around it, so they see those pages as not built.
vi.mock('@/app/routes/screens', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/app/routes/screens')>();
  const { SCREENS } = actual;
  return { ...actual, SCREENS: Object.fromEntries(Object.entries(SCREENS).filter(([key]) => !/^org\.(class|acayear)/.test(key))) };
});

const token = { access_token: 'tok-1', token_type: 'bearer', expires_in: 7200, refresh_token: 'ref-1' } as const;

function signIn() {
  saveToken(token);
  saveUInfo(k12UInfo());
}

beforeEach(() => resetApp());

describe('decideAccess (docs/product-rules.md#screens-and-routes)', () => {
  it('always allows the login screen and the personal centre', () => {
    expect(decideAccess('/', null, false)).toBe('allow');
    expect(decideAccess('/myInfo/base', null, false)).toBe('allow');
    expect(decideAccess('/myInfo/editAccount', null, false)).toBe('allow');
  });
  it('asks for login elsewhere without a stored account with a current type path', () => {
    expect(decideAccess('/k12/org/class', null, false)).toBe('login');
    expect(decideAccess('/scoreReport', null, true)).toBe('login');
    expect(decideAccess('/k12/org/class', k12UInfo({ currentTypePath: null }), true)).toBe('login');
    expect(decideAccess('/k12/org/class', k12UInfo(), false)).toBe('login');
  });
  it('answers not found for another role family, allows the own family and the /single screens the role holds', () => {
    expect(decideAccess('/gx/org/acayear', k12UInfo(), true)).toBe('notFound');
    expect(decideAccess('/admin/currentOrg', k12UInfo(), true)).toBe('notFound');
    expect(decideAccess('/k12/org/class', k12UInfo(), true)).toBe('allow');
    expect(decideAccess('/single/sportsMeet/score', k12UInfo({ permissions: ['single:sportsMeet:score:view'] }), true)).toBe('allow');
    expect(decideAccess('/single/sportsMeet/score/screen/3', k12UInfo({ permissions: ['single:sportsMeet:score:view'] }), true)).toBe('allow');
    // A role without the shared meet screens (a district's) gets the 404 page, not a screen that only answers 403.
    expect(decideAccess('/single/sportsMeet/score', k12UInfo(), true)).toBe('notFound');
    expect(decideAccess('/menuManagement', k12UInfo(), true)).toBe('allow');
  });
  it("answers not found for a screen of the own family outside the role's menu, hidden routes with their page", () => {
    // The fake teacher's menu holds class management and school years, not staff or the class dashboard.
    expect(decideAccess('/k12/user/teacher', k12UInfo(), true)).toBe('notFound');
    expect(decideAccess('/k12/user/teacher/edit/3', k12UInfo(), true)).toBe('notFound');
    expect(decideAccess('/k12/dataCenter/class/detail/3', k12UInfo(), true)).toBe('notFound');
    expect(decideAccess('/k12/nowhere', k12UInfo(), true)).toBe('notFound');
    expect(decideAccess('/k12/org/acayear', k12UInfo(), true)).toBe('allow');

    const withDashboard = k12UInfo();
    const classPage = withDashboard.menuTree[0].children[0];
    withDashboard.menuTree[0].children.push({ ...classPage, menuId: 'k12.dataCenter.class', menuPath: '/k12/dataCenter/class', defaultPath: '/k12/dataCenter/class' });
    expect(decideAccess('/k12/dataCenter/class', withDashboard, true)).toBe('allow');
    // A hidden route comes with the page that opens it.
    expect(decideAccess('/k12/dataCenter/class/detail/3', withDashboard, true)).toBe('allow');

    const noClasses = k12UInfo();
    noClasses.menuTree[0].children = noClasses.menuTree[0].children.filter((n) => n.menuId !== 'k12.org.class');
    noClasses.permissions = [];
    expect(decideAccess('/k12/org/class', noClasses, true)).toBe('notFound');
  });
});

describe('route guard', () => {
  it("warns '未登录，请登录' and redirects to '/?rt=<path>' when not signed in", async () => {
    fakeApi({});
    const { router } = renderApp('/k12/org/class?page=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.search).toBe(`?rt=${encodeURIComponent('/k12/org/class?page=2')}`);
    expect(getToasts().some((t) => t.open && t.message === '未登录，请登录')).toBe(true);
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
  });

  it('opens the personal centre without a session', async () => {
    fakeApi({});
    const { router } = renderApp('/myInfo/base');
    expect(await screen.findByTestId('my-info')).toHaveTextContent('尚未登录');
    expect(router.state.location.pathname).toBe('/myInfo/base');
  });

  it("shows the guard's 404, not the screen, for a screen outside the role's menu opened by URL", async () => {
    signIn();
    fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }) });
    const { router } = renderApp('/k12/user/teacher');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(screen.queryByTestId('not-available')).toBeNull();
    expect(router.state.location.pathname).toBe('/k12/user/teacher');
  });

  it('shows 404 for a path of another family and for unknown paths', async () => {
    signIn();
    fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }) });
    const { router } = renderApp('/gx/org/acayear');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    await router.navigate('/k12/nowhere/at/all');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });

  it('renders a catalogue screen not built yet as an honest not-available page, with permitted buttons only', async () => {
    signIn();
    fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }) });
    renderApp('/k12/org/class');
    const page = await screen.findByTestId('not-available');
    expect(page).toHaveTextContent('“班级管理”暂未开放');
    expect(page.querySelector('[data-permission="k12:org:class:add"]')).not.toBeNull();
    expect(page.querySelector('[data-permission="k12:org:class:delete"]')).toBeNull();
    expect(store.get(lastPathAtom)).toBe('/k12/org/class');
  });

  it('shows the shell: side menu, breadcrumbs, title; logout clears the session', async () => {
    signIn();
    const api = fakeApi({
      'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }),
      'POST /api/sso/oauth/logout': () => ({ data: null }),
    });
    const { router } = renderApp('/k12/org/acayear/edit/7');
    const menu = await screen.findByTestId('side-menu');
    expect(menu).toHaveTextContent('班级管理');
    expect(screen.getByTestId('menu-item-k12.org.acayear')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('menu-item-k12.org.class')).not.toHaveAttribute('aria-current');
    expect(screen.getByTestId('breadcrumbs')).toHaveTextContent(/组织管理.*学年学期.*编辑学年/);
    expect(screen.getByTestId('not-available')).toHaveTextContent('“编辑学年”暂未开放');
    expect(document.title).toBe('编辑学年 - 第一中学');
    expect(screen.getByTestId('platform-title')).toHaveTextContent('第一中学');

    const user = userEvent.setup();
    await user.click(screen.getByTestId('user-menu'));
    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.find('POST /api/sso/oauth/logout')).toHaveLength(1);
    expect(store.get(tokenAtom)).toBeNull();
  });
});
