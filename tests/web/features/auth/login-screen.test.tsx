import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginScreen } from '@/features/auth/components/login-screen';
import { queryClient } from '@/lib/query-client';
import { getToasts } from '@/lib/toast';
import { setLocale } from '@/lib/i18n';
import { sha256 } from '@/lib/sha256';
import { saveToken, store, tokenAtom, uinfoAtom } from '@/lib/store';
import { fakeApi, k12UInfo, renderApp, resetApp } from '../../app/fake-api';

const simpleInfo = { platformName: '阳光体育平台', icon: '', loginImg: '', filingNumber: '京ICP备12345678号' };
const token = { access_token: 'tok-1', token_type: 'bearer', expires_in: 7200, refresh_token: 'ref-1' } as const;

beforeEach(() => resetApp());
afterEach(async () => {
  await act(() => setLocale('zh_cn'));
});

const warnings = () => getToasts().filter((t) => t.open && t.kind === 'warning').map((t) => t.message);

describe('login screen', () => {
  it('shows the organisation title, the captcha image and the filing link', async () => {
    fakeApi({ 'GET /api/oper/web/cs/tenantOrg/getSimpleInfo': () => ({ data: simpleInfo }) });
    renderApp('/');
    await waitFor(() => expect(screen.getByTestId('login-title')).toHaveTextContent('阳光体育平台'));
    expect(document.title).toBe('阳光体育平台');
    const img = screen.getByTestId('login-captcha');
    expect(img.getAttribute('src')).toMatch(/^\/api\/code\?randomStr=\d{13}[a-z0-9]+$/);
    const filing = screen.getByTestId('login-filing');
    expect(filing).toHaveTextContent('京ICP备12345678号');
    expect(filing).toHaveAttribute('href', 'https://beian.miit.gov.cn/');

    const before = img.getAttribute('src');
    await userEvent.click(screen.getByTestId('login-captcha-refresh'));
    expect(screen.getByTestId('login-captcha').getAttribute('src')).not.toBe(before);
  });

  it('shows translated required messages and refuses Chinese in the password', async () => {
    fakeApi({});
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('login-submit'));
    expect(await screen.findByText('请填写登录用户名')).toBeInTheDocument();
    expect(screen.getByText('请填写登录密码')).toBeInTheDocument();
    expect(screen.getByText('请填写验证码')).toBeInTheDocument();

    await user.type(screen.getByTestId('login-password'), 'abc密码123');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('登录密码格式仅支持大小写字母、数字及特殊符号')).toBeInTheDocument();

    await act(() => setLocale('en_us'));
    expect(await screen.findByText('Please enter your username.')).toBeInTheDocument();
    expect(screen.getByText('The password may contain only letters, digits and special symbols.')).toBeInTheDocument();
    expect(screen.getByTestId('login-submit')).toHaveTextContent('Sign in');
  });

  it('switches every text with the language dropdown', async () => {
    fakeApi({});
    renderApp('/');
    const user = userEvent.setup();
    const select = within(await screen.findByTestId('language-select')).getByRole('combobox', { name: '语言' });
    await user.selectOptions(select, within(select).getByRole('option', { name: '繁體中文' }));
    expect(await screen.findByText('歡迎登入')).toBeInTheDocument();
    expect(screen.getByTestId('login-title')).toHaveTextContent('體育管理平台');
    expect(document.documentElement.lang).toBe('zh-TW');
  });

  it('signs in with the SHA-256 password and opens the landing page of a single role', async () => {
    const api = fakeApi({
      'POST /api/sso/login': () => ({ data: token }),
      'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }),
    });
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-username'), 'teacher01');
    await user.type(screen.getByTestId('login-password'), 'Tiyu@2026');
    await user.type(screen.getByTestId('login-code'), '1234');
    const randomStr = new URL(screen.getByTestId('login-captcha').getAttribute('src')!, 'http://x').searchParams.get('randomStr');
    await user.click(screen.getByTestId('login-submit'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/k12/org/class'));
    expect(api.find('POST /api/sso/login')[0].body).toEqual({ accountNum: 'teacher01', password: sha256('Tiyu@2026'), code: '1234', randomStr });
    expect(store.get(tokenAtom)?.access_token).toBe('tok-1');
    expect(store.get(uinfoAtom)?.currentTypePath).toBe('/k12');
    expect(await screen.findByRole('heading', { level: 1, name: '班级管理' })).toBeInTheDocument();
  });

  it('on a failed login warns with the server message, clears and reloads the captcha', async () => {
    fakeApi({ 'POST /api/sso/login': () => ({ code: '400', msg: '验证码错误' }) });
    renderApp('/');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-username'), 'teacher01');
    await user.type(screen.getByTestId('login-password'), 'Tiyu@2026');
    await user.type(screen.getByTestId('login-code'), '9999');
    const before = screen.getByTestId('login-captcha').getAttribute('src');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(warnings()).toContain('验证码错误'));
    expect(screen.getByTestId('login-code')).toHaveValue('');
    expect(screen.getByTestId('login-captcha').getAttribute('src')).not.toBe(before);
    expect(store.get(tokenAtom)).toBeNull();
  });

  it('sends a person whose password an administrator set to the change-password form first, then back to sign in with the new one', async () => {
    let changed = false;
    const api = fakeApi({
      'POST /api/sso/login': () => ({ data: { ...token, must_change_password: true } }),
      'POST /api/busi/web/myInfo/editAccount': () => {
        changed = true;
        return { data: null };
      },
      'GET /api/busi/web/myInfo/getUInfo': () => (changed ? { data: k12UInfo() } : { status: 428, code: '428', msg: '密码已被管理员重置，请先修改密码' }),
    });
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-username'), 'jiaoyan01');
    await user.type(screen.getByTestId('login-password'), 'Once2026x');
    await user.type(screen.getByTestId('login-code'), '1234');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/changePassword'));
    // Nothing else was asked for before the change.
    expect(api.find('GET /api/busi/web/myInfo/getUInfo')).toHaveLength(0);
    await user.type(await screen.findByTestId('old-password'), 'Once2026x');
    await user.type(screen.getByTestId('new-password'), 'Mine2026!');
    await user.type(screen.getByTestId('confirm-password'), 'Mine2026!');
    await user.click(screen.getByTestId('change-password-submit'));
    // As the form says: the session ends and the login screen asks for the new password.
    expect(await screen.findByTestId('login-username')).toBeInTheDocument();
    expect(await screen.findByText('密码修改成功，请重新登录')).toBeInTheDocument();
    expect(router.state.location.pathname).not.toBe('/changePassword');
    expect(api.find('GET /api/busi/web/myInfo/getUInfo')).toHaveLength(0);
    expect(api.find('POST /api/busi/web/myInfo/editAccount')[0].body).toEqual({ oldPassword: sha256('Once2026x'), newPassword: 'Mine2026!' });
  });

  it('a stored session that must change its password opens the change-password form', async () => {
    fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ status: 428, code: '428', msg: '密码已被管理员重置，请先修改密码' }) });
    saveToken(token);
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/changePassword'));
    expect(await screen.findByTestId('forced-password-change')).toHaveTextContent('请修改密码');
  });

  it('sends a person with several roles to /myInfo/base to choose', async () => {
    const multi = k12UInfo();
    multi.accounts[0].roles.push({ ...multi.accounts[0].roles[0], roleId: 'r2', roleName: '班主任', presentFlag: false });
    fakeApi({ 'POST /api/sso/login': () => ({ data: token }), 'GET /api/busi/web/myInfo/getUInfo': () => ({ data: multi }) });
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-username'), 'multi0001');
    await user.type(screen.getByTestId('login-password'), 'Tiyu@2026');
    await user.type(screen.getByTestId('login-code'), '1234');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/myInfo/base'));
    expect(await screen.findByTestId('account-chooser')).toHaveTextContent('班主任');
  });

  it('warns when no role has menus and stays on the login screen', async () => {
    const none = k12UInfo();
    none.accounts[0].roles[0].menus = [];
    fakeApi({
      'POST /api/sso/login': () => ({ data: token }),
      'GET /api/busi/web/myInfo/getUInfo': () => ({ data: none }),
      'POST /api/sso/oauth/logout': () => ({ data: null }),
    });
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-username'), 'nobody01');
    await user.type(screen.getByTestId('login-password'), 'Tiyu@2026');
    await user.type(screen.getByTestId('login-code'), '1234');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(warnings()).toContain('没有任何可用的角色权限信息，请联系管理员处理！'));
    expect(router.state.location.pathname).toBe('/');
    expect(store.get(tokenAtom)).toBeNull();
  });

  it('logs in automatically with ?token= and follows rt', async () => {
    const api = fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }) });
    const { router } = renderApp('/?token=from-sso&rt=%2Fk12%2Forg%2Fclass%3Fx%3D1');
    expect(await screen.findByTestId('login-authenticating')).toHaveTextContent('正在验证身份');
    await waitFor(() => expect(router.state.location.pathname).toBe('/k12/org/class'));
    expect(router.state.location.search).toBe('?x=1');
    expect(String(api.find('GET /api/busi/web/myInfo/getUInfo')[0].config.headers.Authorization)).toBe('bearer from-sso');
  });

  it('falls back to the form when the query token is refused, and drops it from the address', async () => {
    fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ status: 401, code: '401', msg: 'expired' }) });
    const { router } = renderApp('/?token=stale&rt=%2Fk12%2Forg%2Fclass');
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?rt=%2Fk12%2Forg%2Fclass'));
    expect(store.get(tokenAtom)).toBeNull();
    expect(warnings()).toContain('当前登录状态已过期，请重新登录');
  });

  it('refuses an rt that leaves the site', async () => {
    saveToken(token);
    fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }) });
    const { router } = renderApp('/?rt=%2F%2Fevil.example%2Fx');
    await waitFor(() => expect(router.state.location.pathname).toBe('/k12/org/class'));
  });

  it('starts loading the page to return to right after the sign-in is sent, not before it (docs/decisions/012-lean-first-screen.md)', async () => {
    let loadingWhenSent = true;
    const onSigningIn = vi.fn();
    const api = fakeApi({
      'POST /api/sso/login': () => {
        loadingWhenSent = onSigningIn.mock.calls.length > 0;
        return { code: '400', msg: '验证码错误' };
      },
    });
    const router = createMemoryRouter([{ path: '/', element: <LoginScreen onSigningIn={onSigningIn} /> }], { initialEntries: ['/?rt=%2Fk12%2FdataCenter%2Fschool'] });
    render(
      <JotaiProvider store={store}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </JotaiProvider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('login-submit'));
    expect(await screen.findByText('请填写登录用户名')).toBeInTheDocument();
    // Refused by the form: nothing is sent, nothing preloaded.
    expect(onSigningIn).not.toHaveBeenCalled();
    await user.type(screen.getByTestId('login-username'), 'school01');
    await user.type(screen.getByTestId('login-password'), 'Tiyu@2026');
    await user.type(screen.getByTestId('login-code'), '1234');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(api.find('POST /api/sso/login')).toHaveLength(1));
    await waitFor(() => expect(onSigningIn).toHaveBeenCalledWith('/k12/dataCenter/school'));
    // Over HTTP/1.1 the page's files would take the browser's connections before the sign-in's request.
    expect(loadingWhenSent).toBe(false);
  });
});
