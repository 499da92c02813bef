import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { InboxRow } from '@/domain/notices/notices';
import { saveToken, saveUInfo } from '@/lib/store';
import { fakeApi, k12UInfo, renderApp, resetApp } from '../../app/fake-api';

beforeEach(() => {
  resetApp();
  saveToken({ access_token: 'tok', token_type: 'bearer', expires_in: 1, refresh_token: 'r' });
  saveUInfo(k12UInfo());
});

const row = (id: string, title: string, extra: Partial<InboxRow> = {}): InboxRow => ({
  id,
  title,
  publisherName: '江宁区教育局',
  pinned: false,
  showFrom: '2026-11-20',
  publishedAt: '2026-11-20T02:00:00.000Z',
  read: false,
  ...extra,
});

describe('notice inbox (/myInfo/messages)', () => {
  it('lists pinned and unread notices as the server orders them; opening one shows it and marks it read once', async () => {
    const read = new Set<string>();
    const api = fakeApi({
      'GET /api/busi/web/myInfo/getUInfo': () => ({ data: k12UInfo() }),
      'GET /api/busi/web/myInfo/notices/page': () => ({
        data: { records: [row('n1', '置顶：冬季长跑', { pinned: true, read: read.has('n1') }), row('n2', '体测安排', { read: true })], total: 2, size: 10, current: 1, pages: 1 },
      }),
      'GET /api/busi/web/myInfo/notices/n1': () => ({ data: { ...row('n1', '置顶：冬季长跑', { pinned: true }), content: '<p>请组织长跑<script>alert(1)</script></p>', attachments: [] } }),
      'POST /api/busi/web/myInfo/notices/n1/read': () => {
        read.add('n1');
        return { data: { read: true } };
      },
    });
    renderApp('/myInfo/messages');
    const user = userEvent.setup();
    const items = await screen.findAllByTestId('inbox-item', {}, { timeout: 10_000 });
    expect(items.map((i) => i.getAttribute('data-read'))).toEqual(['false', 'true']);
    expect(within(items[0]).getByText('未读')).toBeInTheDocument();
    expect(within(items[0]).getByLabelText('置顶')).toBeInTheDocument();

    await user.click(items[0]);
    const dialog = await screen.findByTestId('inbox-notice');
    await waitFor(() => expect(within(dialog).getByText('请组织长跑')).toBeInTheDocument());
    expect(dialog.querySelector('script')).toBeNull();
    await waitFor(() => expect(api.find('POST /api/busi/web/myInfo/notices/n1/read')).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByTestId('inbox-item')[0].getAttribute('data-read')).toBe('true'));
    // An already read notice is not marked again.
    await user.keyboard('{Escape}');
    await user.click(screen.getAllByTestId('inbox-item')[1]);
    expect(api.find('POST /api/busi/web/myInfo/notices/n2/read')).toHaveLength(0);
  });
});
