import type { ReactNode } from 'react';
import { RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state/empty-state';
import { PageHeader } from '@/components/page-header/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-error';

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
 * The one way a screen shows a query (docs/adding-a-screen.md): `loading` (a skeleton by
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

/**
 * What a detail screen draws while it has no record to show: a skeleton while the record loads; "not found" under the
 * page header (with its back button) when the server answers 404 or nothing; a failed load with a retry otherwise, so a
 * dropped connection is never mistaken for a deleted record. Used as `if (!record) return <DetailState … />`.
 */
export function DetailState({ query, title, notFound }: { query: QueryLike; title: string; notFound: string }) {
  if (query.isPending) {
    return (
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="query-loading">
        <Skeleton className="h-10 w-72" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  const failed = query.error && !(query.error instanceof ApiError && query.error.status === 404);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader title={title} back={{ safe: true }} />
      <Card>
        {failed ? <QueryError message={query.error?.message} onRetry={() => void query.refetch()} /> : <EmptyState title={notFound} />}
      </Card>
    </div>
  );
}
