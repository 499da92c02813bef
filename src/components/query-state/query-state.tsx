import type { ReactNode } from 'react';
import { RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state/empty-state';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';

/** What QueryState reads of a TanStack query. */
export interface QueryLike {
  isPending: boolean;
  error: Error | null;
  refetch(): unknown;
}

/** A failed load with the reason and a retry button. */
export function QueryError({ message, onRetry }: { message?: string; onRetry(): void }) {
  const { t } = useTranslation('components');
  return (
    <EmptyState
      icon={<TriangleAlert aria-hidden className="size-10 text-destructive" strokeWidth={1.5} />}
      title={t('queryState.errorTitle')}
      description={message}
      action={
        <Button variant="outline" onClick={onRetry} data-testid="query-retry">
          <RefreshCw aria-hidden />
          {t('queryState.retry')}
        </Button>
      }
    />
  );
}

/**
 * The one way a screen shows a query (docs/architecture.md "How to add a management screen"): `loading` (a skeleton by
 * default) while the first answer loads; the error with a retry when there is nothing to show; `empty` when the answer
 * has nothing; else `children(data)`. Data already on screen stays when a later refetch fails (the failure is toasted).
 */
export function QueryState<T>({
  query,
  data,
  isEmpty,
  loading,
  empty,
  children,
}: {
  query: QueryLike;
  /** What the content is drawn from; falsy until it can be drawn. */
  data: T | null | undefined | false;
  isEmpty?(data: T): boolean;
  loading?: ReactNode;
  empty?: ReactNode;
  children(data: T): ReactNode;
}) {
  const { t } = useTranslation('components');
  if (query.isPending && !data) return <>{loading ?? <Skeleton className="h-64 w-full" data-testid="query-loading" />}</>;
  if (!data) return <QueryError message={query.error?.message} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(data)) return <>{empty ?? <EmptyState title={t('empty.title')} />}</>;
  return <>{children(data)}</>;
}
