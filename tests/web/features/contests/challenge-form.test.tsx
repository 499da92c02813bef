import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { contestResource } from '@/features/contests/api';
import { ContestFormScreen } from '@/features/contests/contest-screens';
import { fakeApi, resetApp } from '../../app/fake-api';

/** An empty 第 1 关 达标成绩 (and an empty 闯关项目) is flagged on save, and nothing is sent. */

describe('obstacle challenge form', () => {
  beforeEach(() => resetApp());

  it('flags the empty threshold and item by their fields and saves nothing', async () => {
    const base = contestResource('gx').base;
    const api = fakeApi({
      [`GET ${base}/options`]: () => ({ data: { grades: [1, 2, 3, 4], classes: [], colleges: [] } }),
      [`POST ${base}`]: () => ({ data: { id: 'c1' } }),
    });
    const router = createMemoryRouter([{ path: '/challenge/add', element: <ContestFormScreen family="gx" type="challenge" /> }], { initialEntries: ['/challenge/add'] });
    render(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    const threshold = await screen.findByLabelText(/达标成绩/);
    expect(threshold).toHaveValue(null);
    fireEvent.click(screen.getByRole('button', { name: '保存' }));

    const field = threshold.closest('[data-field="levels.0.threshold"]') as HTMLElement;
    expect(await within(field).findByText('请输入达标成绩')).toBeInTheDocument();
    expect(within(screen.getByTestId('challenge-item')).getByRole('alert')).toHaveTextContent('请至少选择一个比赛项目');
    expect(api.calls.filter((c) => c.config.method === 'post')).toHaveLength(0);
  });
});
