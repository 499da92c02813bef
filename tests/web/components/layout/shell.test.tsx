import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation, createMemoryRouter, RouterProvider, Outlet } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppShell } from '@/components/layout/app-shell';
import { LockScreen, useLockTriggers } from '@/components/layout/lock-screen';
import { tabScope } from '@/components/layout/tab-state';
import { TooltipProvider } from '@/components/ui/tooltip';
import { sha256 } from '@/lib/sha256';
import { lockedAtom, store } from '@/lib/store';
import { AppProvider } from '@/app/provider';
import { fakeApi, k12UInfo, resetApp } from '../../app/fake-api';

const info = k12UInfo();
const HOME = '/k12/org/class';
const NAMES: Record<string, string> = { '/k12/org/class': '班级管理', '/k12/org/acayear': '学年学期', '/k12/org/grade': '年级管理', '/k12/org/major': '专业管理' };

function Page() {
  const { pathname, search } = useLocation();
  return (
    <p data-testid="page">
      {pathname}
      {search}
    </p>
  );
}

function Frame() {
  useLockTriggers(0);
  return (
    <TooltipProvider>
      <AppShell title="第一中学" homePath={HOME} menuTree={info.menuTree} breadcrumbs={[]} tabScope={tabScope(info)} tabsEnabled pageLabel={(p) => NAMES[p] ?? (p.startsWith('/k12/') ? p : null)} overlay={<LockScreen userName={info.userName} onSignOut={() => {}} />}>
        <Outlet />
      </AppShell>
    </TooltipProvider>
  );
}

function renderShell(path = HOME) {
  const router = createMemoryRouter([{ element: <Frame />, children: [{ path: '*', element: <Page /> }] }], { initialEntries: [path] });
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { router, ...view };
}

const tabKeys = () => screen.queryAllByTestId('page-tab').map((el) => el.getAttribute('data-key'));
const go = (router: ReturnType<typeof renderShell>['router'], to: string) => act(() => router.navigate(to));

beforeEach(() => resetApp());
afterEach(() => resetApp());

describe('tab bar (docs/product-rules.md#tab-bar)', () => {
  it('opens pages as tabs labelled with their names; the landing tab has no close button', async () => {
    const { router } = renderShell();
    await go(router, '/k12/org/acayear?current=2');
    await go(router, '/k12/org/grade');
    expect(tabKeys()).toEqual([HOME, '/k12/org/acayear', '/k12/org/grade']);
    const bar = screen.getByTestId('tab-bar');
    expect(within(bar).getByRole('link', { name: /学年学期/ })).toHaveAttribute('href', '/k12/org/acayear?current=2');
    expect(within(bar).getByRole('link', { name: /年级管理/ })).toHaveAttribute('aria-current', 'page');
    const [home] = screen.getAllByTestId('page-tab');
    expect(within(home).queryByTestId('page-tab-close')).toBeNull();
  });

  it('gives no tab to what is not a console page (the sign-in page on its way out)', async () => {
    const { router } = renderShell('/login');
    await go(router, '/k12/org/grade');
    expect(tabKeys()).toEqual([HOME, '/k12/org/grade']);
  });

  it('comes back to a page through the side menu at the URL its tab was left at (filters, page)', async () => {
    const { router } = renderShell();
    await go(router, '/k12/org/acayear?name=2026&current=3');
    await go(router, '/k12/org/grade');
    // The side menu links to the bare path.
    await userEvent.click(screen.getByTestId('menu-group-k12.org'));
    await userEvent.click(screen.getByTestId('menu-item-k12.org.acayear'));
    await waitFor(() => expect(screen.getByTestId('page')).toHaveTextContent('/k12/org/acayear?name=2026&current=3'));
  });

  it('closes a tab (the active one hands over to its neighbour), the others, and those to the right', async () => {
    const user = userEvent.setup();
    const { router } = renderShell();
    for (const p of ['/k12/org/acayear', '/k12/org/grade', '/k12/org/major']) await go(router, p);
    await user.click(within(screen.getAllByTestId('page-tab')[3]).getByTestId('page-tab-close'));
    expect(tabKeys()).toEqual([HOME, '/k12/org/acayear', '/k12/org/grade']);
    expect(screen.getByTestId('page')).toHaveTextContent('/k12/org/grade');

    // Right-click on 学年学期 → close to the right.
    fireEvent.contextMenu(within(screen.getAllByTestId('page-tab')[1]).getByRole('link'));
    await user.click(await screen.findByTestId('page-tab-close-right'));
    expect(tabKeys()).toEqual([HOME, '/k12/org/acayear']);
    expect(screen.getByTestId('page')).toHaveTextContent('/k12/org/acayear');

    await go(router, '/k12/org/major');
    await user.click(screen.getByTestId('page-tab-actions'));
    await user.click(await screen.findByTestId('page-tab-close-others'));
    expect(tabKeys()).toEqual([HOME, '/k12/org/major']);
    // The fixed tab's own "close" is disabled.
    fireEvent.contextMenu(within(screen.getAllByTestId('page-tab')[0]).getByRole('link'));
    expect(await screen.findByTestId('page-tab-close-this')).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Escape}');

    // Keyboard: Delete on a focused tab closes it; the fixed tab stays.
    within(screen.getAllByTestId('page-tab')[1]).getByRole('link').focus();
    await user.keyboard('{Delete}');
    expect(tabKeys()).toEqual([HOME]);
    within(screen.getAllByTestId('page-tab')[0]).getByRole('link').focus();
    await user.keyboard('{Delete}');
    expect(tabKeys()).toEqual([HOME]);
  });

  it('reopens the same tabs after a reload (from storage), for this account only', async () => {
    const first = renderShell();
    await go(first.router, '/k12/org/acayear?current=2');
    await go(first.router, '/k12/org/grade');
    first.unmount();

    renderShell('/k12/org/grade');
    expect(tabKeys()).toEqual([HOME, '/k12/org/acayear', '/k12/org/grade']);
    expect(within(screen.getByTestId('tab-bar')).getByRole('link', { name: /学年学期/ })).toHaveAttribute('href', '/k12/org/acayear?current=2');
  });
});

describe('scroll positions of the tabs (docs/product-rules.md#tab-bar)', () => {
  // jsdom lays nothing out: the console's scroller keeps its position here, and its reads and writes are counted (each
  // forces a layout in a browser).
  const positions = new WeakMap<Element, number>();
  let touched = 0;
  const main = () => document.getElementById('main-content')!;
  beforeEach(() => {
    touched = 0;
    Object.defineProperty(HTMLElement.prototype, 'scrollTop', {
      configurable: true,
      get(this: HTMLElement) {
        if (this.id === 'main-content') touched++;
        return positions.get(this) ?? 0;
      },
      set(this: HTMLElement, top: number) {
        if (this.id === 'main-content') touched++;
        positions.set(this, top);
      },
    });
  });
  afterEach(() => {
    delete (HTMLElement.prototype as { scrollTop?: number }).scrollTop;
  });

  it('opens another page at the top and comes back to a page where it was left', async () => {
    const { router } = renderShell('/k12/org/major');
    act(() => {
      main().scrollTop = 300;
      fireEvent.scroll(main());
    });
    await go(router, '/k12/org/acayear');
    expect(main().scrollTop).toBe(0);
    await go(router, '/k12/org/major');
    expect(main().scrollTop).toBe(300);
  });

  it('draws the first page without reading or moving the scroller (it is at the top), so no layout is forced in that commit', () => {
    renderShell('/k12/org/grade');
    expect(screen.getByTestId('page')).toHaveTextContent('/k12/org/grade');
    expect(touched).toBe(0);
  });
});

describe('menu search (docs/product-rules.md#menu-search)', () => {
  it('opens with Ctrl+K, finds a page by pinyin initials, opens it with Enter', async () => {
    const user = userEvent.setup();
    renderShell('/k12/org/acayear');
    await user.keyboard('{Control>}k{/Control}');
    const input = await screen.findByTestId('menu-search-input');
    await waitFor(() => expect(input).toHaveFocus());
    await user.keyboard('bjgl');
    await waitFor(() => expect(screen.getAllByTestId('menu-search-item').map((el) => el.textContent)).toEqual([expect.stringContaining('班级管理')]));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('page')).toHaveTextContent('/k12/org/class'));
    expect(screen.queryByTestId('menu-search')).toBeNull();
  });
});

describe('lock screen (docs/product-rules.md#lock-screen)', () => {
  const RIGHT = 'Tiyu@2026';
  function server() {
    return fakeApi({
      'POST /api/busi/web/shell/unlock': (body) =>
        (body as { password: string }).password === sha256(RIGHT) ? { data: null } : { status: 400, code: '400', msg: '密码错误，还可尝试 4 次', data: { field: 'password' } },
    });
  }

  it('locks on Alt+L and covers the console; only the right password (checked by the server) unlocks it', async () => {
    const user = userEvent.setup();
    const api = server();
    renderShell();
    await user.keyboard('{Alt>}l{/Alt}');
    const lock = await screen.findByTestId('lock-screen');
    expect(store.get(lockedAtom)).toBe(true);
    // The frame underneath is inert: nothing in it can be reached.
    expect(document.querySelector('[data-slot=app-shell]')).toHaveAttribute('inert');
    expect(within(lock).getByTestId('lock-password')).toHaveFocus();

    await user.type(within(lock).getByTestId('lock-password'), 'nope{Enter}');
    expect(await within(lock).findByTestId('lock-error')).toHaveTextContent('密码错误');
    expect(screen.getByTestId('lock-screen')).toBeInTheDocument();
    expect(api.find('POST /api/busi/web/shell/unlock')[0].body).toEqual({ password: sha256('nope') });

    await user.type(within(lock).getByTestId('lock-password'), `${RIGHT}{Enter}`);
    await waitFor(() => expect(screen.queryByTestId('lock-screen')).toBeNull());
    expect(store.get(lockedAtom)).toBe(false);
    expect(document.querySelector('[data-slot=app-shell]')).not.toHaveAttribute('inert');
  });

  it('stays locked after a reload, and does not send an empty password', async () => {
    const user = userEvent.setup();
    const api = server();
    const first = renderShell();
    await user.keyboard('{Alt>}l{/Alt}');
    await screen.findByTestId('lock-screen');
    first.unmount();

    renderShell();
    const lock = await screen.findByTestId('lock-screen');
    await user.click(within(lock).getByTestId('lock-unlock'));
    expect(await within(lock).findByTestId('lock-error')).toHaveTextContent('请输入密码');
    expect(api.find('POST /api/busi/web/shell/unlock')).toHaveLength(0);
  });
});
