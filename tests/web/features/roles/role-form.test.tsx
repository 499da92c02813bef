import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { RoleFormScreen } from '@/features/roles/components/role-screens';
import { i18next } from '@/lib/i18n';
import { permissionsAtom } from '@/lib/permissions';
import { uinfoAtom } from '@/lib/store';
import type { UInfo } from '@/domain/auth/types';
import type { DataScope } from '@/domain/roles/roles';
import { createQueryClient } from '@/lib/query-client';

const post = vi.hoisted(() => vi.fn((_url: string, body: unknown) => Promise.resolve({ id: 'new', ...(body as object) })));
vi.mock('@/lib/api-client', async (importOriginal) => ({ ...(await importOriginal<object>()), post }));

/** What the editor holds: the class screen with its buttons and role management, not school years. */
function held(): Set<string> {
  const codes = new Set<string>(['k12.org', 'k12.user']);
  for (const key of ['k12.org.class', 'k12.user.role']) {
    const e = getCatalogEntry(key)!;
    codes.add(e.permission);
    for (const b of e.buttons) codes.add(b.permission);
  }
  return codes;
}

/** The editor's own account: the present role's data scope bounds the scopes the form offers. */
function editorInfo(dataScope: DataScope): UInfo {
  return {
    userId: 'u1',
    userName: '编辑者',
    mobile: '',
    gender: 'female',
    platformName: '',
    icon: '',
    orgType: 21,
    currentTypePath: '/k12',
    menuTree: [],
    permissions: [],
    accounts: [
      {
        accountId: 'a1',
        accountNum: 'editor01',
        orgId: 'o1',
        orgName: '一中',
        orgType: 21,
        tenantOrgId: 'o1',
        tenantOrgName: '一中',
        presentFlag: true,
        roles: [{ roleId: 'r1', roleName: '编辑', identity: 'teacher', presentFlag: true, dataScope, menus: [] }],
      },
    ],
  };
}

function setup(dataScope: DataScope = 'org') {
  const store = createStore();
  store.set(permissionsAtom, held());
  store.set(uinfoAtom, editorInfo(dataScope));
  const list = pageAccess('k12.user.role').paths.list;
  const router = createMemoryRouter(
    [
      { path: list, element: <p>role list</p> },
      { path: `${list}/add`, element: <RoleFormScreen family="k12" /> },
    ],
    { initialEntries: [list, `${list}/add`], initialIndex: 1 },
  );
  render(
    <Provider store={store}>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </Provider>,
  );
  return router;
}

beforeAll(async () => {
  await i18next.changeLanguage('zh_cn');
});

describe('role form', () => {
  it('checking a page grants its buttons; screens the editor lacks cannot be checked; the save sends the checked ids', async () => {
    const router = setup();
    expect(screen.getByTestId('perm-k12.org.acayear')).toBeDisabled();
    expect(screen.getByTestId('perm-k12.org.class')).toBeEnabled();
    fireEvent.click(screen.getByTestId('perm-k12.org.class'));
    expect(screen.getByTestId('perm-k12.org.class#add')).toBeChecked();
    expect(screen.getByTestId('perm-k12.org')).toHaveAttribute('data-state', 'indeterminate');

    // Found by its field, not getByLabelText: matching a label among the tree's hundreds of labels took ≈ 35 s in jsdom.
    const nameInput = document.querySelector<HTMLInputElement>('[data-field="name"] input')!;
    expect(nameInput.labels?.[0]?.textContent).toMatch(/角色名称/);
    fireEvent.change(nameInput, { target: { value: '班级管理2' } });
    fireEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(post).toHaveBeenCalled());
    const body = post.mock.calls[0][1] as { name: string; menuIds: string[] };
    expect(body.name).toBe('班级管理2');
    expect(body.menuIds).toEqual(expect.arrayContaining(['k12.org.class', 'k12.org.class#add', 'k12.org.class#delete']));
    expect(body.menuIds.some((id) => id.startsWith('k12.org.acayear'))).toBe(false);
    await waitFor(() => expect(router.state.location.pathname).toBe(pageAccess('k12.user.role').paths.list));
    // The whole catalogue tree of the family renders: a slow machine needs more than the default time.
  }, 120_000);

  it('offers no data scope wider than the editor’s own, and starts on it', async () => {
    setup('classes');
    const byLabel = (name: RegExp) => screen.getByRole('radio', { name });
    await waitFor(() => expect(byLabel(/本班/)).toBeChecked());
    expect(byLabel(/全部/)).toBeDisabled();
    expect(byLabel(/本年级/)).toBeDisabled();
    expect(byLabel(/本班/)).toBeEnabled();
  }, 120_000);
});
