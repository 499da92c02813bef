import { useState } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImportDialog, type ImportResult } from '@/components/import-dialog/import-dialog';
import { getToasts, toast } from '@/lib/toast';
import { i18next } from '@/lib/i18n';

const t = (key: string, opts: Record<string, unknown> = {}) => i18next.t(key, opts);
const xlsx = (name = 'students.xlsx') =>
  new File(['PK'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ImportDialog (docs/product-rules.md#import-files)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    toast.dismiss();
  });

  const setup = (upload: (file: File) => Promise<ImportResult>, extra: Partial<Parameters<typeof ImportDialog>[0]> = {}) => {
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime, applyAccept: false });
    render(<ImportDialog open onOpenChange={onOpenChange} title="导入学生" upload={upload} {...extra} />);
    return { user, onOpenChange, input: screen.getByLabelText(t('components:importDialog.fileInput')) as HTMLInputElement };
  };

  it('walks 0 → 1 → 2: progress +10 every 500 ms up to 90, then the counts from the file name and the failure export', async () => {
    const answer = deferred<ImportResult>();
    const upload = vi.fn(() => answer.promise);
    const { user, input } = setup(upload);

    // State 0: choose a file.
    expect(screen.getByText(t('components:importDialog.choose'))).toBeInTheDocument();
    await user.upload(input, xlsx());
    expect(upload).toHaveBeenCalledWith(expect.any(File), expect.any(Function));

    // State 1: uploading.
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    act(() => vi.advanceTimersByTime(500));
    expect(bar).toHaveAttribute('aria-valuenow', '10');
    act(() => vi.advanceTimersByTime(1500));
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    act(() => vi.advanceTimersByTime(10_000));
    expect(bar).toHaveAttribute('aria-valuenow', '90');

    // State 2: finished.
    const createObjectURL = vi.fn(() => 'blob:failures');
    const revokeObjectURL = vi.fn();
    // jsdom has no object URLs: install fakes and put the originals back at the end.
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const blob = new Blob(['failures']);
    await act(async () => answer.resolve({ blob, fileName: 'x_12_3.xlsx' }));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText(t('components:importDialog.finished'))).toBeInTheDocument();
    expect(screen.getByText('12')).toBeInTheDocument();
    expect(screen.getByText('3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t('components:importDialog.exportFailures') }));
    expect(createObjectURL).toHaveBeenCalledWith(blob);
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe('x_12_3.xlsx');
    act(() => vi.advanceTimersByTime(10));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:failures');
    click.mockRestore();
    Object.assign(URL, original);
  });

  it('hides the export when nothing failed; OK closes and the next opening starts at state 0', async () => {
    const upload = vi.fn(() => Promise.resolve({ blob: new Blob([]), fileName: 'x_8_0.xlsx' }));
    const onOpenChange = vi.fn();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { rerender } = render(<ImportDialog open onOpenChange={onOpenChange} title="导入" upload={upload} />);
    await user.upload(screen.getByLabelText(t('components:importDialog.fileInput')), xlsx());
    expect(await screen.findByText('8')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('components:importDialog.exportFailures') })).toBeNull();
    await user.click(screen.getByRole('button', { name: t('components:importDialog.ok') }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    rerender(<ImportDialog open={false} onOpenChange={onOpenChange} title="导入" upload={upload} />);
    rerender(<ImportDialog open onOpenChange={onOpenChange} title="导入" upload={upload} />);
    expect(screen.getByText(t('components:importDialog.choose'))).toBeInTheDocument();
  });

  it('rejects a .csv with the only-Excel message and does not upload', async () => {
    const upload = vi.fn();
    const { user, input } = setup(upload);
    await user.upload(input, new File(['a,b'], 'students.csv', { type: 'text/csv' }));
    expect(screen.getByRole('alert')).toHaveTextContent(t('errors:onlyExcel'));
    expect(upload).not.toHaveBeenCalled();
  });

  it('an upload error shows a toast with its message and goes back to state 0', async () => {
    const upload = vi.fn(() => Promise.reject(new Error('模板列不匹配')));
    const { user, input } = setup(upload);
    await user.upload(input, xlsx());
    expect(await screen.findByText(t('components:importDialog.choose'))).toBeInTheDocument();
    expect(getToasts().some((x) => x.kind === 'error' && x.message === '模板列不匹配')).toBe(true);
  });

  it('blocks choosing a file until canUpload, saying why', async () => {
    const upload = vi.fn();
    const { user, input } = setup(upload, { canUpload: false, blockedReason: t('errors:chooseYearFirst') });
    expect(input).toBeDisabled();
    expect(screen.getByText(t('errors:chooseYearFirst'))).toBeInTheDocument();
    await user.click(screen.getByText(t('components:importDialog.choose')));
    expect(getToasts().some((x) => x.kind === 'warning')).toBe(true);
    expect(upload).not.toHaveBeenCalled();
  });

  it('offers 更新已存在的数据 (off by default) and lists every row the dry run would update, before → after', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime, applyAccept: false });
    const onChange = vi.fn();
    const preview = vi.fn(() =>
      Promise.resolve({
        create: 1,
        update: 1,
        unchanged: 2,
        rejected: 0,
        failures: [],
        updates: [{ row: 3, who: '李思颖（G110101201401010011）', changes: [{ field: 'classId', label: '班级', before: '一年级1班', after: '一年级5班' }] }],
      }),
    );
    function Harness() {
      const [checked, setChecked] = useState(false);
      return (
        <ImportDialog
          open
          onOpenChange={() => undefined}
          title="导入学生"
          updateExisting={{ checked, onChange: (v) => (onChange(v), setChecked(v)) }}
          review={{ preview, commit: vi.fn() }}
        />
      );
    }
    render(<Harness />);
    const option = screen.getByRole('checkbox', { name: t('components:importDialog.updateExisting') });
    expect(option).not.toBeChecked();
    await user.click(option);
    expect(onChange).toHaveBeenLastCalledWith(true);
    expect(option).toBeChecked();
    await user.upload(screen.getByLabelText(t('components:importDialog.fileInput')), xlsx());
    const list = await screen.findByRole('region', { name: t('components:importDialog.review.updates', { count: 1 }) });
    expect(list).toHaveTextContent(t('components:importDialog.review.row', { row: 3 }));
    expect(list).toHaveTextContent('李思颖（G110101201401010011）');
    expect(list).toHaveTextContent('班级一年级1班→一年级5班');
    expect(screen.getByText(t('components:importDialog.review.unchanged', { count: 2 }))).toBeInTheDocument();
  });
});
