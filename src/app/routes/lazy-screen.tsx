import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SCREEN_LOAD_TIMEOUT_MS } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

export type ScreenModule = { default: ComponentType };
export type ScreenLoader = () => Promise<ScreenModule>;

/** Lazy screen loading gives up after 120 s (docs/product-rules.md#screens-and-routes). */
export class ScreenLoadTimeoutError extends Error {
  constructor() {
    super(ERR.screenLoadTimeout);
    this.name = 'ScreenLoadTimeoutError';
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ScreenLoadTimeoutError()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function ScreenLoading() {
  const { t } = useTranslation('pages');
  return (
    <div data-testid="screen-loading" className="flex min-h-64 items-center justify-center text-2xl text-primary">
      <Spinner label={t('screen.loading')} />
    </div>
  );
}

export function ScreenLoadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation(['pages', 'errors']);
  const timeout = error instanceof ScreenLoadTimeoutError;
  return (
    <div role="alert" data-testid="screen-load-error" className="mx-auto flex max-w-md flex-col items-center gap-3 py-16 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
        <TriangleAlert aria-hidden className="size-6" />
      </span>
      <h2 className="text-lg font-semibold">{t('pages:screen.loadErrorTitle')}</h2>
      <p className="text-sm text-muted-foreground">{timeout ? t(ERR.screenLoadTimeout) : t('pages:screen.loadErrorDescription')}</p>
      <Button onClick={onRetry} data-testid="screen-retry">
        <RefreshCw aria-hidden />
        {t('pages:screen.retry')}
      </Button>
    </div>
  );
}

interface BoundaryProps {
  children: ReactNode;
  onRetry(): void;
}

class ScreenErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error) return <ScreenLoadError error={this.state.error} onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}

/** A code-split screen; preload() starts fetching its chunk before it renders (the first signed-in navigation). */
export type LazyScreenComponent = ComponentType & { preload(): void };

/**
 * A code-split screen (created once, at route definition) with a loading view, a 120 s time-out
 * and a load-error view whose retry fetches the chunk again (docs/product-rules.md#screens-and-routes).
 * A screen whose chunk has arrived (preloaded during the sign-in, or opened before) renders at once, without
 * suspending: React holds back the content of a boundary that showed its fallback for 300 ms after it
 * (FALLBACK_THROTTLE_MS), which on a first load came after the account call (docs/decisions/012-lean-first-screen.md).
 */
export function lazyScreen(load: ScreenLoader, timeoutMs = SCREEN_LOAD_TIMEOUT_MS): LazyScreenComponent {
  // A load started by preload() before the screen renders; the first render takes it, a retry loads afresh.
  let started: Promise<ScreenModule> | null = null;
  // The screen once its chunk has arrived.
  let loaded: ComponentType | null = null;
  const begin = () =>
    load().then((m) => {
      loaded = m.default;
      return m;
    });
  const create = () =>
    lazy(() => {
      const pending = started ?? begin();
      started = null;
      return withTimeout(pending, timeoutMs);
    });
  // React.lazy remembers a failure forever, so a retry swaps in a fresh lazy component.
  const current = { Screen: create() };
  function LazyScreen() {
    // Chosen once per mount: switching from the lazy wrapper to the loaded screen would mount it afresh.
    const [shown, setShown] = useState(() => ({ attempt: 0, Screen: loaded ?? current.Screen }));
    const retry = () => {
      current.Screen = create();
      setShown((s) => ({ attempt: s.attempt + 1, Screen: current.Screen }));
    };
    return (
      <ScreenErrorBoundary key={shown.attempt} onRetry={retry}>
        <Suspense fallback={<ScreenLoading />}>
          <shown.Screen />
        </Suspense>
      </ScreenErrorBoundary>
    );
  }
  LazyScreen.preload = () => {
    started ??= begin();
    // Its failure is shown when the screen renders (the load-error view), not here.
    started.catch(() => undefined);
  };
  return LazyScreen;
}
