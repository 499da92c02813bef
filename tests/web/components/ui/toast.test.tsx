import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toast';
import { getToasts, toast } from '@/lib/toast';

// Stands in for non-React code such as the axios client's error interceptor.
function reportFromPlainCode(message: string) {
  toast.warning(message);
}

afterEach(() => {
  act(() => toast.dismiss());
});

describe('toast', () => {
  it('toast.warning from plain code shows the message in the Toaster', async () => {
    render(<Toaster />);
    act(() => reportFromPlainCode('未登录，请登录'));
    expect(await screen.findByText('未登录，请登录')).toBeInTheDocument();
    expect(document.querySelector('[data-slot="toast"][data-kind="warning"]')).not.toBeNull();
  });

  it('queues toasts raised before the Toaster mounts', async () => {
    toast.success('保存成功');
    render(<Toaster />);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
  });

  it('the close button dismisses the toast', async () => {
    render(<Toaster />);
    act(() => {
      toast.error('服务器出错，请稍后重试');
    });
    await screen.findByText('服务器出错，请稍后重试');
    await userEvent.click(screen.getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByText('服务器出错，请稍后重试')).not.toBeInTheDocument());
    await waitFor(() => expect(getToasts()).toHaveLength(0));
  });

  it('the same id replaces instead of stacking', () => {
    toast.info('a', { id: 'net' });
    toast.info('b', { id: 'net' });
    expect(getToasts().filter((t) => t.id === 'net').map((t) => t.message)).toEqual(['b']);
  });
});
