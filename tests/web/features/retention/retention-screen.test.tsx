import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import { RETENTION_DEFAULTS, type AccessLogArchiveRow, type RetentionRunRow } from '@/domain/retention/retention';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';

afterEach(resetApp);

const API = '/api/busi/web/k12/system/retention';
const run: RetentionRunRow = {
  id: 'run-1',
  startedAt: '2026-11-29T19:00:00.000Z',
  finishedAt: '2026-11-29T19:02:00.000Z',
  items: [
    { category: 'signInLogs', rows: 1234, cutoff: '2026-05-29T16:00:00.000Z', error: null },
    { category: 'auditLog', rows: 0, cutoff: '2023-11-29T16:00:00.000Z', error: '磁盘已满' },
  ],
  archives: [{ id: 'arc-1', orgId: 'o1', orgName: '实验学校', fromSeq: 1, toSeq: 500, rows: 500, size: 40_000 }],
};
const day: AccessLogArchiveRow = { id: 'acc-1', periodFrom: '2026-11-27T16:00:00.000Z', periodTo: '2026-11-28T16:00:00.000Z', fromId: 1, toId: 9, rows: 8812, size: 310_000, createdAt: '2026-11-29T19:01:00.000Z' };

function open(held: string[], archives: AccessLogArchiveRow[] = [day]) {
  URL.createObjectURL = vi.fn(() => 'blob:x');
  URL.revokeObjectURL = vi.fn();
  return renderScreen('k12.system.retention', {
    held,
    api: {
      [`GET ${API}/schedule`]: () => ({ data: { durations: RETENTION_DEFAULTS, version: 1, canEdit: false } }),
      [`GET ${API}/runs`]: () => ({ data: { records: [run], total: 1, current: 1, size: 30 } }),
      [`GET ${API}/archives/arc-1`]: () => ({ raw: new Blob(['{"seq":1}'], { type: 'application/x-ndjson' }) }),
      [`GET ${API}/access-log-archives`]: () => ({ data: { records: archives, total: archives.length, current: 1, size: 400 } }),
      [`GET ${API}/access-log-archives/acc-1`]: () => ({ raw: new Blob(['gz']) }),
    },
  });
}

describe('数据保留 (system.retention): the runs and the archives are lists of the list kit', () => {
  it('lists the runs whole (no pager) with each step’s rows or failure, and downloads an operation-log archive', async () => {
    const { calls } = open([pageAccess('k12.system.retention').view]);
    const runs = await screen.findByTestId('retention-runs', {}, { timeout: 40_000 });
    const row = (await within(runs).findByText('1234')).closest('tr')!;
    expect(row).toHaveTextContent('失败');
    expect(within(runs).queryByTestId('data-table-pagination')).not.toBeInTheDocument();
    // Not an access-log reader: no access-log archives.
    expect(screen.queryByTestId('access-log-archives')).not.toBeInTheDocument();
    await userEvent.setup().click(within(row).getByRole('button', { name: /实验学校/ }));
    await waitFor(() => expect(calls.find(`GET ${API}/archives/arc-1`)).toHaveLength(1));
  });

  it('shows the access-log archives to a reader of the access log, with a day’s period, and downloads one; none says so', async () => {
    const held = [pageAccess('k12.system.retention').view, pageAccess('k12.system.accessLog').view];
    const { calls } = open(held);
    const list = await screen.findByTestId('access-log-archives', {}, { timeout: 40_000 });
    const row = (await within(list).findByText('2026-11-28')).closest('tr')!;
    expect(row).toHaveTextContent('8,812');
    await userEvent.setup().click(within(row).getByTestId('access-log-archive-download'));
    await waitFor(() => expect(calls.find(`GET ${API}/access-log-archives/acc-1`)).toHaveLength(1));
  });

  it('says when there are no access-log archives yet', async () => {
    open([pageAccess('k12.system.retention').view, pageAccess('k12.system.accessLog').view], []);
    const list = await screen.findByTestId('access-log-archives', {}, { timeout: 40_000 });
    expect(await within(list).findByText('暂无归档')).toBeInTheDocument();
  });
});
