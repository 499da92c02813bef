import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { getToasts } from '@/lib/toast';
import { sha256 } from '@/lib/sha256';
import { saveToken, saveUInfo, store, tokenAtom, uinfoAtom } from '@/lib/store';
import { fakeApi, k12UInfo, renderApp, resetApp } from '../../app/fake-api';

beforeEach(() => {
  resetApp();
  saveToken({ access_token: 'tok', token_type: 'bearer', expires_in: 1, refresh_token: 'r' });
  saveUInfo(k12UInfo());
});

describe('personal centre', () => {
  it('changes the password: validates, sends the old one as SHA-256, then signs out to login', async () => {
    const api = fakeApi({
      'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }),
      'POST /api/busi/web/myInfo/editAccount': () => ({ data: null }),
      'POST /api/sso/oauth/logout': () => ({ data: null }),
    });
    const { router } = renderApp('/myInfo/editAccount');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('change-password-submit'));
    expect(await screen.findByText('请填写原密码')).toBeInTheDocument();
    expect(screen.getByText('请填写新密码')).toBeInTheDocument();

    await user.type(screen.getByTestId('old-password'), 'Tiyu@2026');
    await user.type(screen.getByTestId('new-password'), '12345');
    await user.type(screen.getByTestId('confirm-password'), '54321');
    await user.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByText('密码长度为6-20位')).toBeInTheDocument();
    expect(screen.getByText('两次填写的密码不一致')).toBeInTheDocument();

    await user.clear(screen.getByTestId('new-password'));
    await user.type(screen.getByTestId('new-password'), 'New@2026x');
    await user.clear(screen.getByTestId('confirm-password'));
    await user.type(screen.getByTestId('confirm-password'), 'New@2026x');
    await user.click(screen.getByTestId('change-password-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.find('POST /api/busi/web/myInfo/editAccount')[0].body).toEqual({ oldPassword: sha256('Tiyu@2026'), newPassword: 'New@2026x' });
    expect(store.get(tokenAtom)).toBeNull();
    expect(getToasts().some((t) => t.kind === 'success')).toBe(true);
  });

  it('refuses a new password equal to the current one before sending anything', async () => {
    const api = fakeApi({ 'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }) });
    renderApp('/myInfo/editAccount');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('old-password'), 'Tiyu@2026');
    await user.type(screen.getByTestId('new-password'), 'Tiyu@2026');
    await user.type(screen.getByTestId('confirm-password'), 'Tiyu@2026');
    await user.click(screen.getByTestId('change-password-submit'));
    expect(await screen.findByText('新密码不能与原密码相同')).toBeInTheDocument();
    expect(api.find('POST /api/busi/web/myInfo/editAccount')).toHaveLength(0);
  });

  it('edits the profile and keeps the answer as the stored user info', async () => {
    const api = fakeApi({
      'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }),
      'POST /api/busi/web/myInfo/editUser': (body) => ({ data: { ...k12UInfo(), ...(body as object) } }),
    });
    renderApp('/myInfo/editUser');
    const user = userEvent.setup();
    const name = await screen.findByTestId('edit-user-name');
    await waitFor(() => expect(name).toHaveValue('张老师'));
    await user.clear(screen.getByTestId('edit-user-mobile'));
    await user.type(screen.getByTestId('edit-user-mobile'), '123');
    await user.click(screen.getByTestId('edit-user-submit'));
    expect(await screen.findByText('手机号码格式不正确')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, '李老师');
    await user.clear(screen.getByTestId('edit-user-mobile'));
    await user.type(screen.getByTestId('edit-user-mobile'), '13900000000');
    await user.click(screen.getByTestId('edit-user-submit'));
    await waitFor(() => expect(store.get(uinfoAtom)?.userName).toBe('李老师'));
    expect(api.find('POST /api/busi/web/myInfo/editUser')[0].body).toEqual({ userName: '李老师', mobile: '13900000000', gender: 'male' });
  });
});
