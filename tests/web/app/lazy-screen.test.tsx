import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCREEN_LOAD_TIMEOUT_MS } from '@/domain/constants';
import { lazyScreen, withTimeout, ScreenLoadTimeoutError } from '@/app/routes/lazy-screen';

function Hello() {
  return <p>hello screen</p>;
}

describe('lazy screens', () => {
  // React logs every error an error boundary catches; the failures here are on purpose.
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('use the 120 s time-out of docs/product-rules.md#screens-and-routes', async () => {
    expect(SCREEN_LOAD_TIMEOUT_MS).toBe(120_000);
    vi.useFakeTimers();
    const never = new Promise<never>(() => {});
    const result = withTimeout(never, SCREEN_LOAD_TIMEOUT_MS).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(SCREEN_LOAD_TIMEOUT_MS);
    expect(await result).toBeInstanceOf(ScreenLoadTimeoutError);
    vi.useRealTimers();
  });

  it('show a load error after the time-out, and load again on retry', async () => {
    let calls = 0;
    const load = () => {
      calls++;
      return calls === 1 ? new Promise<never>(() => {}) : Promise.resolve({ default: Hello });
    };
    const Screen = lazyScreen(load, 50);
    render(<Screen />);
    expect(screen.getByTestId('screen-loading')).toBeInTheDocument();
    expect(await screen.findByTestId('screen-load-error')).toHaveTextContent('页面加载超时，请刷新重试');
    await userEvent.click(screen.getByTestId('screen-retry'));
    expect(await screen.findByText('hello screen')).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('start loading on preload, before they render, and fetch the chunk once', async () => {
    let calls = 0;
    const Screen = lazyScreen(() => {
      calls++;
      return Promise.resolve({ default: Hello });
    });
    Screen.preload();
    Screen.preload();
    expect(calls).toBe(1);
    render(<Screen />);
    expect(await screen.findByText('hello screen')).toBeInTheDocument();
    expect(calls).toBe(1);
  });

  it('show a failed preload as the load error when they render, and load again on retry', async () => {
    let calls = 0;
    const Screen = lazyScreen(() => (++calls === 1 ? Promise.reject(new Error('chunk 404')) : Promise.resolve({ default: Hello })));
    Screen.preload();
    render(<Screen />);
    expect(await screen.findByTestId('screen-load-error')).toHaveTextContent('页面加载失败');
    await userEvent.click(screen.getByTestId('screen-retry'));
    expect(await screen.findByText('hello screen')).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('show a load error when the chunk fails', async () => {
    const Screen = lazyScreen(() => Promise.reject(new Error('chunk 404')));
    render(<Screen />);
    expect(await screen.findByTestId('screen-load-error')).toHaveTextContent('页面加载失败');
  });
});
