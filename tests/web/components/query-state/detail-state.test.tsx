import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { DetailState, type QueryLike } from '@/components/query-state/query-state';
import { ApiError } from '@/lib/api-error';
import { i18next } from '@/lib/i18n';

const show = (query: QueryLike) =>
  render(
    <MemoryRouter>
      <DetailState query={query} title="作业详情" notFound="作业不存在" />
    </MemoryRouter>,
  );

describe('DetailState', () => {
  it('shows a skeleton while the record loads', () => {
    show({ isPending: true, error: null, refetch: vi.fn() });
    expect(screen.getByTestId('query-loading')).toBeInTheDocument();
    expect(screen.queryByText('作业不存在')).toBeNull();
  });

  it('says "not found" under the page header when the server answers 404', () => {
    show({ isPending: false, error: new ApiError('不存在', '404', 404), refetch: vi.fn() });
    expect(screen.getByRole('heading', { name: '作业详情' })).toBeInTheDocument();
    expect(screen.getByText('作业不存在')).toBeInTheDocument();
    expect(screen.queryByTestId('query-retry')).toBeNull();
  });

  it('offers a retry, not "not found", when the load failed for another reason', async () => {
    const refetch = vi.fn();
    show({ isPending: false, error: new ApiError('网络异常', 'network'), refetch });
    expect(screen.queryByText('作业不存在')).toBeNull();
    expect(screen.getByText(i18next.t('components:queryState.errorTitle'))).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('query-retry'));
    expect(refetch).toHaveBeenCalledOnce();
  });
});
