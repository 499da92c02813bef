import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderScreen } from '../../../support/render-screen';
import { type fakeApi, resetApp } from '../../app/fake-api';
import { planDetail, TEACHER_PERMISSIONS } from './fixtures';

const API = '/api/busi/web/k12/organizeTest/testManage';
/** Whoever holds the delete button administers plans: the recycle bin is theirs. */
const ADMIN_PERMISSIONS = [...TEACHER_PERMISSIONS, 'k12:test:testManage:delete'];

const render = (held: string[], search: string) =>
  renderScreen('k12.test.testManage', {
    held,
    search,
    api: {
      [`GET ${API}/options`]: () => ({ data: null }),
      [`GET ${API}/page`]: (_body, config) => {
        const bin = (config.params as { bin?: number }).bin === 1;
        return { data: { records: [planDetail({ name: bin ? '已删除的计划' : '春季体测' })], total: 1, current: 1, size: 10 } };
      },
    },
  });
const pageParams = (calls: ReturnType<typeof fakeApi>) => calls.find(`GET ${API}/page`).map((c) => c.config.params as Record<string, unknown>);

beforeEach(() => resetApp());

describe('test plan list', () => {
  it('a plan administrator opens the recycle bin as a tab kept in the URL, with the filters it had', async () => {
    const { calls, router } = render(ADMIN_PERMISSIONS, '?name=体测');
    expect(await screen.findByText('春季体测', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(pageParams(calls).at(-1)).toMatchObject({ name: '体测', current: 1, size: 10 });
    expect(pageParams(calls).at(-1)).not.toHaveProperty('bin');

    await userEvent.setup().click(screen.getByRole('tab', { name: /回收站/ }));
    expect(await screen.findByText('已删除的计划')).toBeInTheDocument();
    expect(pageParams(calls).at(-1)).toMatchObject({ name: '体测', bin: 1 });
    expect(router.state.location.search).toContain('view=bin');
    // The tab controls the panel that holds the bin's hint and table.
    const panel = screen.getByRole('tabpanel');
    expect(screen.getByRole('tab', { name: /回收站/ })).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toContainElement(screen.getByTestId('list-view-hint'));
    expect(panel).toContainElement(screen.getByText('已删除的计划'));
  });

  it('without the delete button there is no recycle bin, even through a link to it', async () => {
    const { calls } = render(TEACHER_PERMISSIONS, '?view=bin');
    expect(await screen.findByText('春季体测', {}, { timeout: 15_000 })).toBeInTheDocument();
    await waitFor(() => expect(pageParams(calls).length).toBeGreaterThan(0));
    expect(pageParams(calls).every((p) => !('bin' in p))).toBe(true);
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });
});
