import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import type { OperationLogDetail, OperationLogRow } from '@/domain/platform/logs';
import { i18next } from '@/lib/i18n';
import { saveToken, saveUInfo } from '@/lib/store';
import { fakeApi, k12UInfo, renderApp, resetApp } from '../../app/fake-api';

const access = pageAccess('k12.system.operationLog');
const API = '/api/busi/web/k12/system/operationLog';
const PERMISSIONS = [access.view, access.need('detail'), access.need('export')];
const ID = '5b0f3c1e-8a1d-4c55-9d7e-2f1a0c3b4d5e';

const row: OperationLogRow = {
  id: 'log-1',
  at: '2026-11-28T02:30:00.000Z',
  userName: '陈丽华',
  accountNum: 'school01',
  orgName: '南京市江宁区实验学校',
  action: 'move',
  entity: 'banner',
  entityId: ID,
  entityName: '秋季运动会',
};
const older: OperationLogRow = { ...row, id: 'log-2', action: 'issue', entity: 'meetCertificate', entityName: null };
const detail: OperationLogDetail = {
  ...row,
  before: { id: ID, orgId: 'o1', title: '运动会', sortNum: 2, enabled: true, remark: null },
  after: { id: ID, orgId: 'o1', title: '秋季运动会', sortNum: 1, enabled: true, remark: null },
};

function setup() {
  saveToken({ access_token: 'tok', token_type: 'bearer', expires_in: 1, refresh_token: 'r' });
  saveUInfo(k12UInfo({ permissions: PERMISSIONS }));
  return fakeApi({
    'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo({ permissions: PERMISSIONS }) }),
    [`GET ${API}/page`]: () => ({ data: { records: [row, older], total: 2, current: 1, size: 10 } }),
    [`GET ${API}/log-1`]: () => ({ data: detail }),
  });
}

beforeEach(async () => {
  resetApp();
  await i18next.changeLanguage('zh_cn');
});

describe('operation log (系统管理 › 操作日志)', () => {
  it('shows actions and record types in words, the record name beside its id, and filters by selects', async () => {
    const calls = setup();
    const { router } = renderApp('/k12/system/operationLog');
    const table = await screen.findByRole('table', {}, { timeout: 40_000 });
    await within(table).findByText('调整顺序');
    expect(within(table).getByText('轮播图')).toBeInTheDocument();
    expect(within(table).getByText('秋季运动会')).toBeInTheDocument();
    expect(within(table).getAllByText(ID)).toHaveLength(2);
    expect(within(table).getByText('颁发证书')).toBeInTheDocument();
    expect(within(table).getByText('奖状模板')).toBeInTheDocument();
    // No raw code left in the table.
    for (const code of ['move', 'banner', 'issue', 'meetCertificate']) expect(within(table).queryByText(code)).not.toBeInTheDocument();

    // The action filter is a select of the same words; choosing one sends its code.
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: '操作' }));
    await user.click(await screen.findByRole('option', { name: '调整顺序' }));
    await user.click(screen.getByRole('button', { name: /^(查询|搜索)$/ }));
    await waitFor(() => expect(calls.find(`GET ${API}/page`).at(-1)?.config.params).toMatchObject({ action: 'move' }));
    expect(router.state.location.search).toContain('action=move');
  }, 60_000);

  it('opens a row as the changed fields with their labels, before → after, unchanged ones on demand', async () => {
    setup();
    renderApp('/k12/system/operationLog');
    const table = await screen.findByRole('table', {}, { timeout: 40_000 });
    const user = userEvent.setup();
    await user.click(within((await within(table).findByText('秋季运动会')).closest('tr')!).getByRole('button', { name: /详情/ }));
    const dialog = await screen.findByTestId('operation-detail');
    const changes = await within(dialog).findByTestId('operation-changes');
    expect(within(dialog).getByText(/调整顺序 · 轮播图 · 秋季运动会/)).toBeInTheDocument();
    const title = within(changes).getByRole('rowheader', { name: '标题' }).closest('tr')!;
    expect(title).toHaveTextContent('运动会');
    expect(title).toHaveTextContent('秋季运动会');
    expect(within(changes).getByRole('rowheader', { name: '排序' }).closest('tr')).toHaveTextContent('21');
    // Only changed fields at first; the row's own id and organisation never.
    expect(within(changes).queryByRole('rowheader', { name: '启用' })).not.toBeInTheDocument();
    expect(within(changes).queryByRole('rowheader', { name: 'id' })).not.toBeInTheDocument();
    expect(within(changes).queryByRole('rowheader', { name: 'orgId' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '显示未改动的字段（2）' }));
    expect(within(changes).getByRole('rowheader', { name: '启用' }).closest('tr')).toHaveTextContent('是');
    expect(within(changes).getByRole('rowheader', { name: '备注' }).closest('tr')).toHaveTextContent('—');
  }, 60_000);

  it('speaks English too', async () => {
    await i18next.changeLanguage('en_us');
    setup();
    renderApp('/k12/system/operationLog');
    const table = await screen.findByRole('table', {}, { timeout: 40_000 });
    expect(await within(table).findByText('Reorder')).toBeInTheDocument();
    expect(within(table).getByText('Banner')).toBeInTheDocument();
    expect(within(table).getByText('Certificate template')).toBeInTheDocument();
  }, 60_000);
});
