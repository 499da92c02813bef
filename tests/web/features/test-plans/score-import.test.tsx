import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobRow } from '@/domain/jobs';
import { saveToken, saveUInfo } from '@/lib/store';
import { importScores } from '@/features/test-plans/api/import-scores';
import { fakeApi, k12UInfo, renderApp, resetApp } from '../../app/fake-api';
import { PLAN_ID, planDetail, TEACHER_PERMISSIONS } from './fixtures';

// The upload itself is the API's business: here only the wiring of the dialog to it is checked.
vi.mock('@/features/test-plans/api/import-scores', () => ({ importScores: vi.fn() }));
const upload = vi.mocked(importScores);

const API = '/api/busi/web/k12/organizeTest/testManage';
const xlsx = () => new File(['PK'], '八年级2班.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

beforeEach(() => {
  resetApp();
  upload.mockReset();
  saveToken({ access_token: 'tok', token_type: 'bearer', expires_in: 1, refresh_token: 'r' });
  saveUInfo(k12UInfo({ permissions: TEACHER_PERMISSIONS }));
});

function api(detail = planDetail(), more: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    ...more,
    'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo({ permissions: TEACHER_PERMISSIONS }) }),
    [`GET ${API}/detail/${PLAN_ID}`]: () => ({ data: detail }),
    [`GET ${API}/classCompletion/${PLAN_ID}`]: () => ({ data: [] }),
  });
}

describe('score import of a plan (docs/product-rules.md#physique-results: score import, docs/product-rules.md#plan-states)', () => {
  it('uploads the chosen file for the plan, follows its import job, shows the counts of its result and refreshes the plan', async () => {
    // The import runs as a job (docs/product-rules.md#jobs): the upload answers its id, the job its counts and file.
    upload.mockResolvedValue({ jobId: 'job-1' });
    const done: JobRow = {
      id: 'job-1',
      kind: 'physiqueImport',
      state: 'done',
      done: 4,
      total: 4,
      stage: null,
      result: { fileId: 'f1', fileName: '成绩导入结果_3_1.xlsx', counts: { success: 3, failure: 1 } },
      error: null,
      startedBy: '张老师',
      createdAt: '2026-11-23T01:00:00.000Z',
      finishedAt: '2026-11-23T01:00:05.000Z',
    };
    const calls = api(planDetail(), { 'GET /api/busi/web/jobs/job-1': () => ({ data: done }), 'GET /api/busi/web/jobs': () => ({ data: [] }) });
    renderApp(`/k12/organizeTest/testManage/check/${PLAN_ID}`);
    const user = userEvent.setup({ applyAccept: false });
    await user.click(await screen.findByTestId('plan-import', {}, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('导入体测成绩')).toBeInTheDocument();
    const before = calls.find(`GET ${API}/detail/${PLAN_ID}`).length;
    const file = xlsx();
    await user.upload(within(dialog).getByLabelText('选择导入文件'), file);

    await waitFor(() => expect(within(dialog).getByText('导入完成')).toBeInTheDocument());
    expect(upload).toHaveBeenCalledWith('k12', PLAN_ID, file, expect.any(Function));
    expect(dialog.querySelector('[data-slot="import-success"]')).toHaveTextContent('3');
    expect(dialog.querySelector('[data-slot="import-failure"]')).toHaveTextContent('1');
    expect(within(dialog).getByRole('button', { name: '导出失败数据' })).toBeInTheDocument();
    // The plan (counts, lock) is read again once the import finished.
    await waitFor(() => expect(calls.find(`GET ${API}/detail/${PLAN_ID}`).length).toBeGreaterThan(before));
    await user.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }, 20_000);

  it('blocks the dialog with the server message while a sync runs', async () => {
    api(planDetail({ runningJob: { kind: 'sync', startedAt: '2026-11-23T01:00:00.000Z' } }));
    renderApp(`/k12/organizeTest/testManage/check/${PLAN_ID}`);
    const user = userEvent.setup({ applyAccept: false });
    expect(await screen.findByTestId('plan-job', {}, { timeout: 5000 })).toHaveTextContent('数据同步进行中');
    expect(screen.getByTestId('plan-sync')).toBeDisabled();
    await user.click(screen.getByTestId('plan-import'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('该测试计划正在同步数据，请稍后再试')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('选择导入文件')).toBeDisabled();
    expect(upload).not.toHaveBeenCalled();
  }, 20_000);
});
