import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { MenuNode, UInfo } from '@/domain/auth/types';
import { toast } from '@/lib/toast';
import { createApiClient, setApiNavigator, setHttpClient } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { clearAuth, lastPathAtom, store } from '@/lib/store';
import { AppProvider } from '@/app/provider';
import { appRoutes } from '@/app/router';
import { signedInRoutes } from '@/app/routes/signed-in';

export type Reply = { status?: number; data?: unknown; code?: string; msg?: string; raw?: unknown };
export type Handler = (body: unknown, config: InternalAxiosRequestConfig) => Reply;

/** A stand-in for the server: `METHOD /path` → reply; every request is recorded. */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: { key: string; body: unknown; config: InternalAxiosRequestConfig }[] = [];
  const adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    const key = `${(config.method ?? 'get').toUpperCase()} ${config.url}`;
    const body: unknown = typeof config.data === 'string' ? JSON.parse(config.data) : config.data;
    calls.push({ key, body, config });
    const handler = routes[key];
    const reply: Reply = handler ? handler(body, config) : { status: 404, code: '404', msg: 'no route' };
    const status = reply.status ?? 200;
    const data = reply.raw ?? { code: reply.code ?? (status === 200 ? '200' : String(status)), data: reply.data ?? null, msg: reply.msg ?? '' };
    const response: AxiosResponse = {
      data,
      status,
      statusText: String(status),
      headers: new AxiosHeaders({ 'content-type': 'application/json' }),
      config,
    };
    if (status >= 200 && status < 300) return response;
    throw new AxiosError(`status ${status}`, AxiosError.ERR_BAD_RESPONSE, config, {}, response);
  };
  setHttpClient(createApiClient({ adapter }));
  return { calls, find: (key: string) => calls.filter((c) => c.key === key) };
}

/** Fresh session, cache and toasts between tests. */
export function resetApp(): void {
  clearAuth();
  store.set(lastPathAtom, null);
  queryClient.clear();
  toast.dismiss();
  localStorage.clear();
}

/**
 * Renders the whole app (real routes) at `path` in a memory router. The signed-in routes, which the app adds on the
 * first visit (src/app/router.tsx), are there from the start, so a test's waits do not include loading them.
 */
export function renderApp(path: string) {
  const router = createMemoryRouter([...appRoutes, ...signedInRoutes], { initialEntries: [path] });
  setApiNavigator((to) => void router.navigate(to, { replace: true }));
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { router, ...view };
}

const page = (menuId: string, menuPath: string, menuName: string, i18nKey: string): MenuNode => ({
  menuId,
  pid: 'k12.org',
  menuName,
  i18nKey,
  menuPath,
  menuType: '0',
  sortNum: 10,
  permission: `${menuId.replaceAll('.', ':')}:view`,
  defaultPath: menuPath,
  children: [],
  buttons: [],
});

/** A K12 teacher with one account and one role whose first page is the class list. */
export function k12UInfo(overrides: Partial<UInfo> = {}): UInfo {
  const classPage = page('k12.org.class', '/k12/org/class', '班级管理', 'k12.org_class');
  const yearPage = { ...page('k12.org.acayear', '/k12/org/acayear', '学年学期', 'k12.org_acayear'), sortNum: 20 };
  const tree: MenuNode[] = [
    {
      menuId: 'k12.org',
      pid: '0',
      menuName: '组织管理',
      i18nKey: 'k12.org',
      menuPath: '',
      menuType: '0',
      sortNum: 10,
      permission: 'k12.org',
      defaultPath: '/k12/org/class',
      icon: 'building-2',
      children: [classPage, yearPage],
      buttons: [],
    },
  ];
  return {
    userId: 'u1',
    userName: '张老师',
    mobile: '13800000000',
    gender: 'male',
    platformName: '第一中学',
    icon: '',
    orgType: 21,
    currentTypePath: '/k12',
    accounts: [
      {
        accountId: 'a1',
        accountNum: 'teacher01',
        orgId: 'o1',
        orgName: '第一中学',
        orgType: 21,
        tenantOrgId: 't1',
        tenantOrgName: '第一中学',
        presentFlag: true,
        roles: [
          {
            roleId: 'r1',
            roleName: '体育教师',
            identity: 'teacher',
            presentFlag: true,
            dataScope: 'org',
            menus: [{ menuId: 'k12.org.class', pid: 'k12.org', menuName: '班级管理', i18nKey: 'k12.org_class', menuPath: '/k12/org/class', menuType: '0', sortNum: 10, permission: 'k12:org:class:view' }],
          },
        ],
      },
    ],
    menuTree: tree,
    permissions: ['k12:org:class:view', 'k12:org:class:add'],
    ...overrides,
  };
}
