import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { training } from '@/features/training/api';
import { TrainingDetailScreen } from '@/features/training/training-screens';
import { fakeApi, resetApp, type Reply } from '../../app/fake-api';

/** A special-training detail of an unknown id says so (or offers a retry), never a grey block forever. */

const ID = '00000000-0000-4000-8000-000000000026';

function renderDetail(reply: Reply) {
  const api = fakeApi({ [`GET ${training.base}/${ID}`]: () => reply });
  const router = createMemoryRouter([{ path: '/training/detail/:id', element: <TrainingDetailScreen /> }], { initialEntries: [`/training/detail/${ID}`] });
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return api;
}

describe('special training detail', () => {
  beforeEach(() => resetApp());

  it('says not found under its header when the plan does not exist', async () => {
    const api = renderDetail({ status: 404, code: '404', msg: '数据不存在' });
    expect(await screen.findByText('该专项训练不存在或已被删除')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '专项训练详情' })).toBeInTheDocument();
    expect(screen.queryByTestId('query-loading')).toBeNull();
    expect(screen.queryByTestId('query-retry')).toBeNull();
    // Only the plan is asked for: its progress and sessions wait for it (one "not found", not three).
    expect(api.calls.map((c) => c.key)).toEqual([`GET ${training.base}/${ID}`]);
  });

  it('offers a retry when the load failed for another reason', async () => {
    renderDetail({ status: 500, code: '500', msg: '服务器错误' });
    expect(await screen.findByTestId('query-retry')).toBeInTheDocument();
    expect(screen.queryByText('该专项训练不存在或已被删除')).toBeNull();
  });
});
