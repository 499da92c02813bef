import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuNode } from '@/domain/auth/types';
import { saveToken, saveUInfo } from '@/lib/store';
import { fakeApi, k12UInfo, renderApp, resetApp } from '../../app/fake-api';

// Stand-in screens: what is under test is the route declaration (PERSONAL_DATA_SCREENS) and the shell drawing the
// watermark for it, not the screens themselves.
vi.mock('@/app/routes/screens', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/app/routes/screens')>();
  const stub = (text: string) => () => Promise.resolve({ default: () => <p>{text}</p> });
  return {
    ...real,
    SCREENS: { ...real.SCREENS, 'user.student': stub('screen:students'), 'dataCenter.student.detail': stub('screen:studentDetail'), 'org.class': stub('screen:classes') },
  };
});

const WATERMARK = 'GET /api/busi/web/k12/data-access/watermark';

const page = (menuId: string, menuPath: string): MenuNode => ({
  menuId,
  pid: 'k12.org',
  menuName: menuId,
  i18nKey: menuId,
  menuPath,
  menuType: '0',
  sortNum: 30,
  permission: `${menuId.replaceAll('.', ':')}:view`,
  defaultPath: menuPath,
  children: [],
  buttons: [],
});

/** A teacher whose menu holds the class list (no personal data) and the student list and dashboard (personal data). */
function signIn(on: boolean) {
  const uinfo = k12UInfo();
  uinfo.menuTree[0].children.push(page('k12.user.student', '/k12/user/student'), page('k12.dataCenter.student', '/k12/dataCenter/student'));
  uinfo.permissions.push('k12:user:student:view', 'k12:dataCenter:student:view');
  saveToken({ access_token: 'tok-1', token_type: 'bearer', expires_in: 7200, refresh_token: 'ref-1' });
  saveUInfo(uinfo);
  return fakeApi({
    'GET /api/busi/web/myInfo/getUInfo': () => ({ data: uinfo }),
    [WATERMARK]: () => ({ data: { on, name: '陈丽华', account: 'school01' } }),
  });
}

describe('the watermark over screens of personal data (docs/product-rules.md#personal-data-access)', () => {
  beforeEach(() => resetApp());

  it('the shell draws the viewer’s name and account over a personal-data screen, taking no clicks, and none over another', async () => {
    signIn(true);
    const { router } = renderApp('/k12/user/student');
    await screen.findByText('screen:students');
    const mark = await screen.findByTestId('watermark');
    expect(mark).toHaveAttribute('data-text', '陈丽华 school01');
    expect(mark).toHaveAttribute('aria-hidden');
    expect(mark.className).toContain('pointer-events-none');
    expect(mark.style.backgroundImage).toContain('svg');

    await act(() => router.navigate('/k12/org/class'));
    await screen.findByText('screen:classes');
    expect(screen.queryByTestId('watermark')).toBeNull();

    // A screen without a kit list or form (the student detail page) is covered by its route declaration alone.
    await act(() => router.navigate('/k12/dataCenter/student/detail/s1'));
    await screen.findByText('screen:studentDetail');
    expect(await screen.findByTestId('watermark')).toHaveAttribute('data-text', '陈丽华 school01');
  });

  it('draws nothing when the organisation turned it off', async () => {
    const calls = signIn(false);
    renderApp('/k12/user/student');
    await screen.findByText('screen:students');
    await waitFor(() => expect(calls.find(WATERMARK)).toHaveLength(1));
    expect(screen.queryByTestId('watermark')).toBeNull();
  });

  it('a screen without personal data neither asks nor draws', async () => {
    const calls = signIn(true);
    renderApp('/k12/org/class');
    await screen.findByText('screen:classes');
    expect(calls.find(WATERMARK)).toHaveLength(0);
    expect(screen.queryByTestId('watermark')).toBeNull();
  });
});
