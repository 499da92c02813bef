import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobRow } from '@/domain/jobs';
import { ImportDialog } from '@/components/import-dialog/import-dialog';
import { i18next } from '@/lib/i18n';

// The jobs API answers from `jobs` (by id) and `listed` (GET /jobs): the dialog's following is what is checked here.
const jobs = new Map<string, JobRow[]>();
let listed: JobRow[] = [];
let lists: JobRow[][] = [];
vi.mock('@/lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/api-client')>()),
  get: vi.fn(async (url: string) => {
    if (url === '/api/busi/web/jobs') return lists.length > 0 ? lists.shift()! : listed;
    const states = jobs.get(url.split('/').pop()!)!;
    return states.length > 1 ? states.shift()! : states[0];
  }),
}));

const t = (key: string, opts: Record<string, unknown> = {}) => i18next.t(key, opts);
const xlsx = () => new File(['PK'], '成绩.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
const row = (over: Partial<JobRow>): JobRow => ({
  id: 'j1',
  kind: 'physiqueImport',
  state: 'running',
  done: 0,
  total: 0,
  stage: null,
  result: null,
  error: null,
  startedBy: '张老师',
  createdAt: '2026-11-29T01:00:00.000Z',
  finishedAt: null,
  ...over,
});

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('ImportDialog following an import job (docs/product-rules.md#jobs)', () => {
  beforeEach(() => {
    jobs.clear();
    listed = [];
    lists = [];
  });
  afterEach(() => vi.clearAllMocks());

  it('shows the job’s real progress and step, may be closed, and ends with the counts and the failures file', async () => {
    jobs.set('j1', [
      row({ state: 'queued' }),
      row({ done: 500, total: 2000, stage: '检查并暂存成绩' }),
      row({ state: 'done', done: 2000, total: 2000, result: { fileId: 'f1', fileName: '成绩导入结果_1990_10.xlsx', counts: { success: 1990, failure: 10 }, message: '成功 1990 行，失败 10 行' } }),
    ]);
    const upload = vi.fn(async () => ({ jobId: 'j1' }));
    const onImported = vi.fn();
    const user = userEvent.setup({ applyAccept: false });
    render(wrap(<ImportDialog open onOpenChange={() => {}} title="导入体测成绩" upload={upload} jobKind="physiqueImport" onImported={onImported} />));
    await user.upload(screen.getByLabelText(t('components:importDialog.fileInput')), xlsx());

    // The job's bar (rows done of the file's rows) and its step, not a bar that creeps on a timer.
    const step = await screen.findByText('检查并暂存成绩', {}, { timeout: 5000 });
    const job = step.closest('[data-testid="job-progress"]') as HTMLElement;
    expect(within(job).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    expect(within(job).getByText('500/2000')).toBeInTheDocument();
    expect(screen.getByText(t('jobs:leaveHintResult'))).toBeInTheDocument();
    expect(screen.getByTestId('import-job-close')).toHaveTextContent(t('jobs:close'));

    // Done: the counts of the job's result and the export of its failures workbook.
    await waitFor(() => expect(screen.getByText(t('components:importDialog.finished'))).toBeInTheDocument(), { timeout: 5000 });
    expect(document.querySelector('[data-slot="import-success"]')).toHaveTextContent('1990');
    expect(document.querySelector('[data-slot="import-failure"]')).toHaveTextContent('10');
    expect(screen.getByRole('button', { name: t('components:importDialog.exportFailures') })).toBeInTheDocument();
    expect(onImported).toHaveBeenCalledWith({ success: 1990, failure: 10 });
  }, 20_000);

  it('opened again while its import job runs, picks the job up instead of offering a new file, and follows it to its end', async () => {
    const running = row({ id: 'j2', done: 40, total: 100, stage: '写入数据' });
    const done = row({ id: 'j2', state: 'done', done: 100, total: 100, result: { fileId: 'f2', fileName: 'x_90_10.xlsx', counts: { success: 90, failure: 10 } } });
    // The list stops naming the job as running before the job's own poll sees it done.
    lists = [[running]];
    listed = [done];
    jobs.set('j2', [running, running, running, done]);
    render(wrap(<ImportDialog open onOpenChange={() => {}} title="导入体测成绩" upload={vi.fn()} jobKind="physiqueImport" />));
    expect(await screen.findByText('写入数据', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(screen.queryByText(t('components:importDialog.choose'))).toBeNull();
    await waitFor(() => expect(screen.getByText(t('components:importDialog.finished'))).toBeInTheDocument(), { timeout: 8000 });
    expect(document.querySelector('[data-slot="import-success"]')).toHaveTextContent('90');
  }, 20_000);

  it('a failed job shows its message and offers the file choice again', async () => {
    jobs.set('j3', [row({ id: 'j3', state: 'failed', error: '未找到表头，请使用国家学生体质健康数据模板', errorStatus: 400 })]);
    const user = userEvent.setup({ applyAccept: false });
    render(wrap(<ImportDialog open onOpenChange={() => {}} title="导入体测成绩" upload={vi.fn(async () => ({ jobId: 'j3' }))} jobKind="physiqueImport" />));
    await user.upload(screen.getByLabelText(t('components:importDialog.fileInput')), xlsx());
    expect(await screen.findByText(t('components:importDialog.choose'), {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
