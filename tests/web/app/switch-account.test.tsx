import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UInfo } from '@/domain/auth/types';
import { permissionsAtom } from '@/lib/permissions';
import { saveToken, saveUInfo, store, uinfoAtom } from '@/lib/store';
import { fakeApi, k12UInfo, renderApp, resetApp } from './fake-api';
import type { SchoolFamily } from '@/domain/menus/access';

/** multi0001: a K12 teacher account and a college admin account in another organisation. */
function multi(present: SchoolFamily): UInfo {
  const base = k12UInfo();
  const k12 = { ...base.accounts[0], presentFlag: present === 'k12' };
  const gx = {
    accountId: 'a2',
    accountNum: 'multi0001',
    orgId: 'o2',
    orgName: '理工大学',
    orgType: 22 as const,
    tenantOrgId: 't2',
    tenantOrgName: '理工大学',
    presentFlag: present === 'gx',
    roles: [
      {
        roleId: 'r9',
        roleName: '学校管理员',
        identity: 'administrator' as const,
        presentFlag: true,
        dataScope: 'org' as const,
        menus: [{ menuId: 'gx.org.acayear', pid: 'gx.org', menuName: '学年学期', i18nKey: 'gx.org_acayear', menuPath: '/gx/org/acayear', menuType: '0' as const, sortNum: 10, permission: 'gx:org:acayear:view' }],
      },
    ],
  };
  if (present === 'k12') return { ...base, accounts: [k12, gx] };
  return {
    ...base,
    platformName: '理工大学',
    orgType: 22,
    currentTypePath: '/gx',
    accounts: [k12, gx],
    permissions: ['gx:org:acayear:view'],
    menuTree: [
      {
        menuId: 'gx.org',
        pid: '0',
        menuName: '组织管理',
        i18nKey: 'gx.org',
        menuPath: '',
        menuType: '0',
        sortNum: 10,
        permission: 'gx.org',
        defaultPath: '/gx/org/acayear',
        children: [{ ...gx.roles[0].menus[0], defaultPath: '/gx/org/acayear', children: [], buttons: [] }],
        buttons: [],
      },
    ],
  };
}

beforeEach(() => resetApp());

describe('account / role / organisation switch', () => {
  it('switches organisation and role from the user menu, rebuilds menus and opens the new landing page', async () => {
    saveToken({ access_token: 'tok', token_type: 'bearer', expires_in: 1, refresh_token: 'r' });
    saveUInfo(multi('k12'));
    const api = fakeApi({
      'GET /api/busi/web/myInfo/getUInfo': () => ({ data: multi('k12') }),
      'POST /api/busi/web/myInfo/switchOrg': () => ({ data: multi('gx') }),
      'POST /api/busi/web/myInfo/switchRole': () => ({ data: multi('gx') }),
    });
    const { router } = renderApp('/k12/org/class');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('switch-role-a2-r9'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/gx/org/acayear'));
    expect(api.find('POST /api/busi/web/myInfo/switchOrg')[0].body).toEqual({ orgId: 'o2', tenantOrgId: 't2' });
    expect(store.get(uinfoAtom)?.currentTypePath).toBe('/gx');
    expect(store.get(permissionsAtom).has('gx:org:acayear:view')).toBe(true);
    await waitFor(() => expect(screen.getByTestId('side-menu')).toHaveTextContent('学年学期'));
    expect(screen.getByTestId('platform-title')).toHaveTextContent('理工大学');
  });

  it('lets a person choose on /myInfo/base', async () => {
    saveToken({ access_token: 'tok', token_type: 'bearer', expires_in: 1, refresh_token: 'r' });
    saveUInfo(multi('k12'));
    fakeApi({
      'GET /api/busi/web/myInfo/getUInfo': () => ({ data: multi('k12') }),
      'POST /api/busi/web/myInfo/switchOrg': () => ({ data: multi('gx') }),
    });
    const { router } = renderApp('/myInfo/base');
    const user = userEvent.setup();
    expect(await screen.findByTestId('profile-summary')).toHaveTextContent('张老师');
    await user.click(await screen.findByTestId('choose-role-a2-r9'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/gx/org/acayear'));
  });
});
