import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuNode } from '@/domain/auth/types';
import { getToasts } from '@/lib/toast';
import { saveToken, saveUInfo } from '@/lib/store';
import { setLocale } from '@/lib/i18n';
import { exportHomework } from '@/features/homework/api';
import { ScoreExportButton } from '@/features/physique-results/components/score-export-button';
import { fakeApi, k12UInfo, renderApp, resetApp, type Reply } from '../../app/fake-api';

// Stand-in screens that start exports as the product's detail pages and the score list do: what is under test is that
// the API client opens the shell's one request dialog on the server's refusal, wherever the export was started.
vi.mock('@/app/routes/screens', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/app/routes/screens')>();
  const detail = () => (
    <button type="button" onClick={() => void exportHomework('k12', 'hw-1').catch(() => undefined)}>
      homework:export
    </button>
  );
  const scores = () => <ScoreExportButton family="k12" filter={{ planId: 'plan-1', keyword: '', classId: undefined }} />;
  return {
    ...real,
    SCREENS: {
      ...real.SCREENS,
      'homework.homeworkManagement': () => Promise.resolve({ default: detail }),
      'test.scoreSearch': () => Promise.resolve({ default: scores }),
      'system.exportApproval': () => Promise.resolve({ default: () => <p>screen:approvals</p> }),
      'myInfo.exports': () => Promise.resolve({ default: () => <p>screen:myExports</p> }),
    },
  };
});

const HOMEWORK_EXPORT = '/api/busi/web/k12/sportsHomework/homeworkManagement/hw-1/export';
const SCORE_EXPORT = '/api/busi/web/k12/organizeTest/scoreSearch/export';
const REQUEST = 'POST /api/busi/web/k12/system/exportApproval';
const MESSAGE = '本次导出 321 条个人信息，超过本单位 100 条的上限，需申请审批后下载。';

/** The server's refusal of an export above the threshold; a file's arrives as a blob. */
const refusal = (screenKey: string, path: string, blob: boolean): Reply => {
  const body = { code: '409', msg: MESSAGE, data: { field: 'exportApproval', screen: screenKey, path } };
  return { status: 409, raw: blob ? new Blob([JSON.stringify(body)], { type: 'application/json' }) : body };
};

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

function signIn({ followable = true } = {}) {
  const uinfo = k12UInfo();
  uinfo.menuTree[0].children.push(
    page('k12.homework.homeworkManagement', '/k12/sportsHomework/homeworkManagement'),
    page('k12.test.scoreSearch', '/k12/organizeTest/scoreSearch'),
    ...(followable ? [page('k12.system.exportApproval', '/k12/system/exportApproval')] : []),
  );
  uinfo.permissions.push('k12:homework:homeworkManagement:view', 'k12:test:scoreSearch:view', ...(followable ? ['k12:system:exportApproval:view'] : []));
  saveToken({ access_token: 'tok-1', token_type: 'bearer', expires_in: 7200, refresh_token: 'ref-1' });
  saveUInfo(uinfo);
  return fakeApi({
    'GET /api/busi/web/myInfo/getUInfo': () => ({ data: uinfo }),
    'GET /api/busi/web/jobs': () => ({ data: [] }),
    'GET /api/busi/web/k12/data-access/watermark': () => ({ data: { on: false, name: '', account: '' } }),
    [`GET ${HOMEWORK_EXPORT}`]: () => refusal('k12.homework.homeworkManagement', HOMEWORK_EXPORT, true),
    [`POST ${SCORE_EXPORT}`]: () => refusal('k12.test.scoreSearch', SCORE_EXPORT, false),
    [REQUEST]: () => ({ data: { id: 'req-1' }, msg: '已提交导出申请，请等待管理员审批' }),
  });
}

const refusalToasts = () => getToasts().filter((t) => t.open && t.message === MESSAGE);

describe('the export approval request opens from any export (docs/product-rules.md#personal-data-access)', () => {
  beforeEach(async () => {
    resetApp();
    await setLocale('zh_cn');
  });

  it('a detail page’s file export refused above the threshold asks for a reason, sends the export’s page and path, and says where to follow it', async () => {
    const calls = signIn();
    const { router } = renderApp('/k12/sportsHomework/homeworkManagement');
    fireEvent.click(await screen.findByText('homework:export'));

    const dialog = await screen.findByTestId('export-approval-dialog');
    expect(dialog).toHaveTextContent(MESSAGE);
    expect(within(dialog).getByTestId('export-approval-page')).toHaveTextContent('导出页面：');
    // The dialog is the message: no toast repeats it.
    expect(refusalToasts()).toHaveLength(0);

    // No reason: the schema's message, nothing sent.
    fireEvent.click(within(dialog).getByTestId('form-save'));
    expect(await within(dialog).findByText('请填写申请理由')).toBeVisible();
    fireEvent.change(within(dialog).getByTestId('export-approval-reason'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByTestId('form-save'));
    await within(dialog).findByText('请填写申请理由');
    expect(calls.find(REQUEST)).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('export-approval-reason'), { target: { value: '期末家长会需核对作业完成情况' } });
    fireEvent.click(within(dialog).getByTestId('form-save'));
    await waitFor(() => expect(calls.find(REQUEST)).toHaveLength(1));
    expect(calls.find(REQUEST)[0].body).toEqual({ screen: 'k12.homework.homeworkManagement', path: HOMEWORK_EXPORT, query: {}, reason: '期末家长会需核对作业完成情况' });

    // Sent: where the request and the approved download are, with a way there.
    const sent = await screen.findByTestId('export-approval-sent');
    expect(sent).toHaveTextContent('已提交导出申请');
    // Every requester follows it on the personal centre's 我的导出, approver or not.
    expect(sent).toHaveTextContent('个人中心 › 我的导出');
    expect(sent).toHaveTextContent('24 小时');
    expect(screen.queryByTestId('export-approval-dialog')).toBeNull();
    await act(async () => fireEvent.click(within(sent).getByTestId('export-approval-follow')));
    await screen.findByText('screen:myExports');
    expect(router.state.location.pathname).toBe('/myInfo/exports');
  });

  it('a job export (the score export) refused at its start asks with its body as the kept query', async () => {
    const calls = signIn({ followable: false });
    renderApp('/k12/organizeTest/scoreSearch');
    fireEvent.click(await screen.findByTestId('score-export'));
    const dialog = await screen.findByTestId('export-approval-dialog');
    expect(dialog).toHaveTextContent(MESSAGE);
    expect(refusalToasts()).toHaveLength(0);
    fireEvent.change(within(dialog).getByTestId('export-approval-reason'), { target: { value: '体测成绩上报核对' } });
    fireEvent.click(within(dialog).getByTestId('form-save'));
    await waitFor(() => expect(calls.find(REQUEST)).toHaveLength(1));
    // Empty filters are left out, as the export itself reads them.
    expect(calls.find(REQUEST)[0].body).toEqual({ screen: 'k12.test.scoreSearch', path: SCORE_EXPORT, query: { planId: 'plan-1' }, reason: '体测成绩上报核对' });
    const sent = await screen.findByTestId('export-approval-sent');
    // A role without the approvals page (a teacher's) is still led to 我的导出, where its requests are.
    expect(sent).toHaveTextContent('个人中心 › 我的导出');
    expect(within(sent).getByTestId('export-approval-follow')).toHaveTextContent('查看我的导出');
    fireEvent.click(within(sent).getByTestId('export-approval-sent-close'));
    await waitFor(() => expect(screen.queryByTestId('export-approval-sent')).toBeNull());
  });

  it('speaks the user’s language', async () => {
    await setLocale('en_us');
    signIn();
    renderApp('/k12/sportsHomework/homeworkManagement');
    fireEvent.click(await screen.findByText('homework:export'));
    const dialog = await screen.findByTestId('export-approval-dialog');
    expect(dialog).toHaveTextContent('Request export');
    fireEvent.click(within(dialog).getByTestId('form-save'));
    expect(await within(dialog).findByText('Enter a reason')).toBeVisible();
  });
});
