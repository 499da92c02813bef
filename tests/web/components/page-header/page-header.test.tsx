import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PageHeader, type PageHeaderProps } from '@/components/page-header/page-header';
import { i18next } from '@/lib/i18n';

const t = (key: string) => i18next.t(key);

function renderAt(back: PageHeaderProps['back']) {
  return render(
    <MemoryRouter initialEntries={['/k12/list', '/k12/edit/1']} initialIndex={1}>
      <Routes>
        <Route path="/k12/list" element={<p>列表页</p>} />
        <Route path="/k12/edit/1" element={<PageHeader title="编辑班级" description="高一(3)班" back={back} actions={<button type="button">保存</button>} />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('PageHeader', () => {
  it('shows title, description and actions; no back button unless asked', () => {
    renderAt(undefined);
    expect(screen.getByRole('heading', { name: '编辑班级' })).toBeInTheDocument();
    expect(screen.getByText('高一(3)班')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '保存' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('components:pageHeader.back') })).toBeNull();
  });

  it('back asks for confirmation first (docs/product-rules.md#leaving-a-form), then goes to the previous page', async () => {
    renderAt(true);
    await userEvent.click(screen.getByRole('button', { name: t('components:pageHeader.back') }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(t('components:pageHeader.confirmTitle'));
    expect(dialog).toHaveTextContent(t('components:pageHeader.confirmContent'));
    expect(screen.queryByText('列表页')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: t('ui:ok') }));
    expect(await screen.findByText('列表页')).toBeInTheDocument();
  });

  it('cancelling the confirmation stays on the page', async () => {
    renderAt(true);
    await userEvent.click(screen.getByRole('button', { name: t('components:pageHeader.back') }));
    await userEvent.click(await screen.findByRole('button', { name: t('ui:cancel') }));
    expect(screen.getByRole('heading', { name: '编辑班级' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('a safe back goes straight to the previous page', async () => {
    renderAt({ safe: true });
    await userEvent.click(screen.getByRole('button', { name: t('components:pageHeader.back') }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(await screen.findByText('列表页')).toBeInTheDocument();
  });
});
