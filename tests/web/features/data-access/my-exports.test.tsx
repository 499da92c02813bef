import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportRequestRow } from '@/domain/data-access/data-access';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';

afterEach(resetApp);

const row = (id: string, status: ExportRequestRow['status'], extra: Partial<ExportRequestRow> = {}): ExportRequestRow => ({
  id,
  userName: '王磊',
  screen: 'k12.homework.homeworkManagement',
  query: {},
  rows: 620,
  reason: `理由${id}`,
  status,
  decidedByName: status === 'pending' ? null : '陈丽华',
  note: null,
  decidedAt: status === 'pending' ? null : '2026-11-30T02:46:00.000Z',
  expiresAt: status === 'approved' || status === 'expired' ? '2026-12-01T02:46:00.000Z' : null,
  createdAt: '2026-11-30T02:40:00.000Z',
  downloads: 0,
  mine: true,
  ...extra,
});

const MY = '/api/busi/web/myInfo/exports';

describe('我的导出 (personal.myInfo.exports)', () => {
  it('lists the caller’s own requests with the refusal’s note, and downloads only an approved, unexpired one from the personal route', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const records = [row('r1', 'approved', { note: '同意' }), row('r2', 'refused', { note: '请按班级分别申请' }), row('r3', 'expired'), row('r4', 'pending')];
    const { calls } = renderScreen('personal.myInfo.exports', {
      api: {
        [`GET ${MY}/page`]: () => ({ data: { records, total: 4, current: 1, size: 10 } }),
        [`GET ${MY}/r1/download`]: () => ({ raw: new Blob(['xlsx']) }),
      },
    });
    const list = await screen.findByTestId('my-exports');
    const rowOf = async (reason: string) => (await within(list).findByText(reason)).closest('tr')!;
    expect(await rowOf('理由r1')).toHaveTextContent('已批准');
    expect(await rowOf('理由r1')).toHaveTextContent('作业管理');
    expect(await rowOf('理由r2')).toHaveTextContent('请按班级分别申请');
    expect(await rowOf('理由r2')).toHaveTextContent('已拒绝');
    expect(within(list).getAllByTestId('my-export-download')).toHaveLength(1);
    await userEvent.setup().click(within(await rowOf('理由r1')).getByTestId('my-export-download'));
    await waitFor(() => expect(calls.find(`GET ${MY}/r1/download`)).toHaveLength(1));
  });
});
