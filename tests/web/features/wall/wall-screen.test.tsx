import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WallSceneAnswer } from '@/domain/data-center/types';
import type { WallConfig } from '@/domain/wall/wall';
import { WallScreen } from '@/features/wall/components/wall-screen';
import { createQueryClient } from '@/lib/query-client';

type Reply = { status: number; body: unknown } | 'network';

function envelope(data: unknown, status = 200, msg = ''): Reply {
  return { status, body: { code: String(status), data, msg } };
}

function config(over: Partial<WallConfig['playlist']> = {}): WallConfig {
  return {
    name: '体育馆大屏',
    orgId: 'o1',
    orgName: '第一中学',
    // Tiny intervals keep the test fast; the server enforces the real limits.
    playlist: { scenes: ['schoolOverview', 'classRanking'], intervalSeconds: 0.15, refreshSeconds: 0.3, ...over },
    meet: null,
    serverTime: new Date().toISOString(),
  };
}

function scene(name: WallSceneAnswer['scene'], mean: number): WallSceneAnswer {
  return {
    scene: name,
    scope: { orgId: 'o1', orgName: '第一中学', schools: 1 },
    period: { schoolYear: 2025, academicYear: '2025-2026', semesterCode: 13, planId: null, planName: null },
    asOf: '2026-11-20T02:30:00.000Z',
    data: { scene: 'classRanking', ranking: { unit: 'class', rows: [{ id: 'c1', name: `mean ${mean}`, orgId: 'o1', orgName: '', gradeNo: 7, tested: 1, assessed: 1, meanTotal: mean, excellentRate: null, goodRate: null, passRate: null, rank: 1 }] } },
  };
}

/** A stand-in server whose answers the test changes as it goes. */
function server() {
  const state = { reply: (_url: string): Reply => 'network', calls: [] as string[] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      state.calls.push(url);
      const reply = state.reply(url);
      if (reply === 'network') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return state;
}

function healthy(mean: number, over?: Partial<WallConfig['playlist']>) {
  return (url: string): Reply => {
    if (url.endsWith('/config')) return envelope(config(over));
    const name = url.split('/').pop() as WallSceneAnswer['scene'];
    return envelope(scene(name, mean));
  };
}

function renderWall(token = 'tok') {
  const client = createQueryClient();
  return render(
    <QueryClientProvider client={client}>
      <WallScreen
        token={token}
        renderScene={(answer) => (
          <p data-testid="scene-body">
            {answer.scene}:{'data' in answer && answer.data.scene === 'classRanking' ? answer.data.ranking.rows[0].name : ''}
          </p>
        )}
      />
    </QueryClientProvider>,
  );
}

describe('wall screen', () => {
  let wakeRequests = 0;
  let sentinels: { released: boolean; release: () => Promise<void> }[] = [];

  beforeEach(() => {
    wakeRequests = 0;
    sentinels = [];
    Object.defineProperty(navigator, 'wakeLock', {
      configurable: true,
      value: {
        request: vi.fn(async () => {
          wakeRequests++;
          const s = {
            released: false,
            release: async () => {
              s.released = true;
            },
          };
          sentinels.push(s);
          return s;
        }),
      },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'wakeLock');
  });

  it('shows the playlist on the wall theme, rotating scenes, and refreshes silently', async () => {
    const api = server();
    api.reply = healthy(80);
    const view = renderWall('tok-a');
    expect(document.documentElement.classList.contains('wall')).toBe(true);
    expect(await screen.findByTestId('scene-body')).toHaveTextContent('schoolOverview');
    expect(screen.getByTestId('wall-org')).toHaveTextContent('第一中学');
    expect(screen.getByTestId('wall-as-of')).toHaveTextContent(/数据截至/);
    await waitFor(() => expect(screen.getByTestId('scene-body')).toHaveTextContent('classRanking'));
    await waitFor(() => expect(screen.getByTestId('scene-body')).toHaveTextContent('schoolOverview'));

    // New figures arrive at the next refresh without a loading screen in between.
    api.reply = healthy(91);
    const states = new Set<string>();
    const watch = new MutationObserver(() => states.add(screen.getByTestId('wall-screen').getAttribute('data-state') ?? ''));
    watch.observe(screen.getByTestId('wall-screen'), { attributes: true, subtree: true, childList: true });
    expect(await screen.findByText('classRanking:mean 91', undefined, { timeout: 10_000 })).toBeInTheDocument();
    watch.disconnect();
    expect([...states]).toEqual(['ready']);
    // Every request went to the public token API only.
    expect(api.calls.every((u) => u.startsWith('/api/screen/tok-a/'))).toBe(true);
    view.unmount();
    expect(document.documentElement.classList.contains('wall')).toBe(false);
  });

  it('keeps the last figures with an offline badge when the server is gone, and recovers by itself', async () => {
    const api = server();
    api.reply = healthy(77, { scenes: ['classRanking'] });
    renderWall('tok-b');
    expect(await screen.findByTestId('scene-body')).toHaveTextContent('mean 77');
    api.reply = () => 'network';
    expect(await screen.findByTestId('wall-offline', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByTestId('scene-body')).toHaveTextContent('mean 77');
    expect(screen.getByTestId('wall-screen')).toHaveAttribute('data-state', 'ready');
    api.reply = healthy(88, { scenes: ['classRanking'] });
    // Back online: the browser says so and the wall fetches at once.
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.getByTestId('scene-body')).toHaveTextContent('mean 88'));
    expect(screen.queryByTestId('wall-offline')).toBeNull();
  });

  it('refuses a revoked link with the server message and stops polling', async () => {
    const api = server();
    api.reply = () => envelope(null, 410, '该大屏链接已被停用，请联系管理员获取新的链接');
    renderWall('tok-c');
    expect(await screen.findByTestId('wall-refused')).toHaveTextContent('该大屏链接已被停用');
    const calls = api.calls.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(api.calls.length).toBe(calls);
  });

  it('keeps the screen awake, asking again when the page becomes visible', async () => {
    const api = server();
    api.reply = healthy(80, { scenes: ['classRanking'] });
    renderWall('tok-d');
    await waitFor(() => expect(wakeRequests).toBe(1));
    // The browser drops the lock when the page is hidden.
    sentinels[0].released = true;
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(wakeRequests).toBe(2));
  });

  it('works where the Wake Lock API is missing', async () => {
    Reflect.deleteProperty(navigator, 'wakeLock');
    const api = server();
    api.reply = healthy(80, { scenes: ['classRanking'] });
    renderWall('tok-e');
    expect(await screen.findByTestId('scene-body')).toHaveTextContent('mean 80');
  });
});
