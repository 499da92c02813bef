import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SyncPreview } from '@/domain/physique-results/types';
import { saveToken, saveUInfo } from '@/lib/store';
import { downloadTemplate } from '@/features/test-plans/api/download-template';
import { exportSignUps } from '@/features/test-plans/api/export-sign-ups';
import { fakeApi, k12UInfo, renderApp, resetApp } from '../../app/fake-api';
import { PLAN_ID, planDetail, TEACHER_PERMISSIONS } from './fixtures';

vi.mock('@/features/test-plans/api/download-template', () => ({ downloadTemplate: vi.fn(() => Promise.resolve()) }));
vi.mock('@/features/test-plans/api/export-sign-ups', () => ({ exportSignUps: vi.fn(() => Promise.resolve()) }));

const API = '/api/busi/web/k12/organizeTest/testManage';

const preview: SyncPreview = {
  total: 2,
  manual: 1,
  students: 2,
  changes: [
    { studentId: 's1', name: '王小明', regNo: 'G001', className: '八年级1班', field: 'run50m', oldValue: 12.1, newValue: 13.5, oldSource: 'import', manual: true },
    { studentId: 's2', name: '李华', regNo: 'G002', className: '八年级1班', field: 'standingLongJump', oldValue: null, newValue: 201, oldSource: null, manual: false },
  ],
};

beforeEach(() => {
  resetApp();
  saveToken({ access_token: 'tok', token_type: 'bearer', expires_in: 1, refresh_token: 'r' });
  saveUInfo(k12UInfo({ permissions: TEACHER_PERMISSIONS }));
});

function api() {
  return fakeApi({
    'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo({ permissions: TEACHER_PERMISSIONS }) }),
    [`GET ${API}/detail/${PLAN_ID}`]: () => ({ data: planDetail() }),
    [`GET ${API}/classCompletion/${PLAN_ID}`]: () => ({ data: [] }),
    [`POST ${API}/sync/${PLAN_ID}/preview`]: () => ({ data: preview }),
    [`POST ${API}/sync/${PLAN_ID}`]: () => ({ data: { students: 1, records: 1 } }),
  });
}

async function openSync() {
  const calls = api();
  renderApp(`/k12/organizeTest/testManage/check/${PLAN_ID}`);
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('plan-sync', {}, { timeout: 15_000 }));
  const dialog = await screen.findByTestId('sync-dialog');
  await within(dialog).findByText('王小明');
  return { calls, user, dialog };
}

describe('sync with a preview', () => {
  it('lists who, item and old → new before writing, and by default keeps imported values', async () => {
    const { calls, user, dialog } = await openSync();
    expect(within(dialog).getByTestId('sync-summary')).toHaveTextContent('将更新2名学生的2项成绩，其中1项原为导入或手工修改的成绩');
    const row = within(dialog).getByText('王小明').closest('[role="row"], tr')!;
    expect(row).toHaveTextContent('50米跑');
    expect(row).toHaveTextContent('12.1');
    expect(row).toHaveTextContent('13.5');
    expect(row).toHaveTextContent('导入');
    expect(row).toHaveTextContent('保留原成绩');
    expect(within(dialog).getByTestId('sync-replace-manual')).not.toBeChecked();
    expect(calls.find(`POST ${API}/sync/${PLAN_ID}`)).toHaveLength(0);

    await user.click(within(dialog).getByTestId('sync-confirm'));
    await waitFor(() => expect(calls.find(`POST ${API}/sync/${PLAN_ID}`)).toHaveLength(1));
    expect(calls.find(`POST ${API}/sync/${PLAN_ID}`)[0].body).toEqual({ replaceManual: false });
  }, 40_000);

  it('lets the person allow device records to replace imported and hand-edited values', async () => {
    const { calls, user, dialog } = await openSync();
    await user.click(within(dialog).getByTestId('sync-replace-manual'));
    expect(within(dialog).queryByText('保留原成绩')).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('sync-confirm')).toHaveTextContent('同步2项');
    await user.click(within(dialog).getByTestId('sync-confirm'));
    await waitFor(() => expect(calls.find(`POST ${API}/sync/${PLAN_ID}`)).toHaveLength(1));
    expect(calls.find(`POST ${API}/sync/${PLAN_ID}`)[0].body).toEqual({ replaceManual: true });
  }, 40_000);
});

describe('import preparation', () => {
  it('offers the template pre-filled with the plan’s students and the sign-up list in the import dialog', async () => {
    api();
    renderApp(`/k12/organizeTest/testManage/check/${PLAN_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('plan-import', {}, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('import-prefilled'));
    expect(vi.mocked(downloadTemplate)).toHaveBeenCalledWith('k12', PLAN_ID);
    await user.click(within(dialog).getByTestId('import-sign-ups'));
    expect(vi.mocked(exportSignUps)).toHaveBeenCalledWith('k12', PLAN_ID);
  }, 40_000);
});
