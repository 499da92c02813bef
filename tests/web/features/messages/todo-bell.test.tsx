import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageRow, TodoSummary } from '@/domain/messages/messages';
import { renderScreen } from '../../../support/render-screen';
import { resetApp } from '../../app/fake-api';

afterEach(resetApp);

const summary: TodoSummary = {
  items: [{ kind: 'exemptionReview', count: 3, pageKey: 'k12.test.exemption', to: '/k12/physiqueManage/exemption?status=pending' }],
  total: 3,
  unread: 1,
};
const message: MessageRow = {
  id: 'm1', kind: 'job', jobId: 'j1', jobKind: 'peopleImport', jobState: 'done', text: '导入人员已完成：成功 1 行，失败 1 行',
  failures: 1, fileName: 'x.xlsx', createdAt: '2026-11-29T08:00:00.000Z', readAt: null, to: null,
};
const page = { records: [message], total: 1, current: 1, size: 10 };

describe('the header bell', () => {
  it('shows the to-dos total, and its popover links each item to the filtered list and lists the latest messages', async () => {
    renderScreen('personal.myInfo.messages', {
      api: { 'GET /api/busi/web/todos': () => ({ data: summary }), 'GET /api/busi/web/myInfo/messages/page': () => ({ data: page }) },
    });
    expect(await screen.findByTestId('todo-bell-count')).toHaveTextContent('3');
    await userEvent.click(screen.getByTestId('todo-bell'));
    const popover = await screen.findByTestId('todo-popover');
    const item = within(popover).getByTestId('todo-bell-item');
    expect(item).toHaveAttribute('href', expect.stringContaining('/k12/physiqueManage/exemption?status=pending'));
    expect(item).toHaveTextContent('免测/缓测待审核');
    expect(await within(popover).findByText('导入人员已完成：成功 1 行，失败 1 行')).toBeVisible();
  });

});
