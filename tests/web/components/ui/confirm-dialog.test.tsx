import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

function Harness({ onConfirm }: { onConfirm(): void | Promise<void> }) {
  const [open, setOpen] = useState(true);
  return <ConfirmDialog open={open} onOpenChange={setOpen} title="确定删除吗？" description="删除后无法恢复" destructive onConfirm={onConfirm} />;
}

/** A plain button (no Radix Trigger) opens the dialog, as row actions and form back buttons do. */
function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        删除
      </button>
      <ConfirmDialog open={open} onOpenChange={setOpen} title="确定删除吗？" onConfirm={() => {}} />
    </>
  );
}

describe('ConfirmDialog', () => {
  it('gives focus back to the button that opened it, for keyboard users', async () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: '删除' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('alertdialog')).toContainElement(document.activeElement as HTMLElement));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('shows translated default buttons', () => {
    render(<Harness onConfirm={() => {}} />);
    expect(screen.getByRole('alertdialog', { name: '确定删除吗？' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '确定' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '取消' })).toBeInTheDocument();
  });

  it('confirm calls onConfirm, waits for it and closes', async () => {
    let finish: () => void = () => {};
    const onConfirm = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    // Still open while the action runs.
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    finish();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('stays open when onConfirm fails', async () => {
    const onConfirm = vi.fn(() => Promise.reject(new Error('boom')));
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(screen.getByRole('button', { name: '确定' })).toBeEnabled());
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('cancel closes without confirming', async () => {
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
