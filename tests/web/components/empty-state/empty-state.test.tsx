import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmptyState } from '@/components/empty-state/empty-state';
import { i18next } from '@/lib/i18n';

describe('EmptyState', () => {
  it('says "no data" by default', () => {
    render(<EmptyState />);
    expect(screen.getByRole('status')).toHaveTextContent(i18next.t('components:empty.title'));
  });

  it('shows the given title, description and action', () => {
    render(<EmptyState title="还没有测试计划" description="新建一个计划开始测试" action={<button type="button">新建</button>} />);
    expect(screen.getByText('还没有测试计划')).toBeInTheDocument();
    expect(screen.getByText('新建一个计划开始测试')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '新建' })).toBeInTheDocument();
  });
});
