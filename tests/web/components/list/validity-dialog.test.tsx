import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ValidityDialog, type ValidityRequest } from '@/components/list/validity-dialog';

const row = { id: 'a' };
function show(request: ValidityRequest<typeof row> | null, onConfirm = vi.fn(async () => undefined), required = false) {
  const props = {
    onClose: vi.fn(),
    title: '设为无效',
    reason: { id: 'reason', label: '无效原因', placeholder: '最多 100 字', max: 100, required, checkReason: (r: string) => (required && !r.trim() ? '请填写无效原因' : null) },
    onConfirm,
  };
  const view = render(<ValidityDialog request={request} {...props} />);
  return { ...view, rerender: (next: ValidityRequest<typeof row> | null) => view.rerender(<ValidityDialog request={next} {...props} />) };
}

describe('ValidityDialog', () => {
  it('refuses a missing required reason with the message under the box, and sends it once given', async () => {
    const onConfirm = vi.fn(async () => undefined);
    show({ rows: [row], invalid: true }, onConfirm, true);
    await userEvent.click(screen.getByRole('button', { name: /确定|OK/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('请填写无效原因');
    expect(onConfirm).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText(/无效原因/), ' 代测 ');
    await userEvent.click(screen.getByRole('button', { name: /确定|OK/ }));
    expect(onConfirm).toHaveBeenCalledWith('代测');
  });

  it('asks no reason to set records valid again, and a new request starts empty', async () => {
    const onConfirm = vi.fn(async () => undefined);
    const view = show({ rows: [row], invalid: true }, onConfirm);
    await userEvent.type(screen.getByLabelText('无效原因'), '设备故障');
    view.rerender({ rows: [row], invalid: true });
    expect(screen.getByLabelText('无效原因')).toHaveValue('');
    view.rerender({ rows: [row], invalid: false });
    expect(screen.queryByLabelText('无效原因')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /确定|OK/ }));
    expect(onConfirm).toHaveBeenCalledWith(undefined);
  });

  it('records that take no reason get a plain confirm with the caller\'s button', async () => {
    const onConfirm = vi.fn(async () => undefined);
    render(<ValidityDialog request={{ rows: [row], invalid: true }} onClose={vi.fn()} title="设为无效？" confirmText="设为无效" onConfirm={onConfirm} />);
    expect(screen.queryByRole('textbox')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '设为无效' }));
    expect(onConfirm).toHaveBeenCalledWith(undefined);
  });
});
