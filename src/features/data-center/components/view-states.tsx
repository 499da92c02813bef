import type { ReactNode } from 'react';
import { BarChart3, RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state/empty-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/** Placeholder while a view's first answer loads: the shape of KPI cards and charts. */
export function DashboardSkeleton() {
  const { t } = useTranslation('dashboard');
  return (
    <div className="grid gap-4" data-testid="dashboard-loading" role="status" aria-busy aria-label={t('state.loading')}>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-24 rounded-xl" />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Skeleton className="h-80 rounded-xl" />
        <Skeleton className="h-80 rounded-xl" />
      </div>
    </div>
  );
}

/** A view that could not load, with a retry. */
export function DashboardError({ message, onRetry }: { message?: string; onRetry(): void }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card data-testid="dashboard-error">
      <CardContent>
        <EmptyState
          icon={<TriangleAlert aria-hidden className="size-10 text-destructive" strokeWidth={1.5} />}
          title={t('state.errorTitle')}
          description={message}
          action={
            <Button variant="outline" onClick={onRetry}>
              <RefreshCw aria-hidden />
              {t('state.retry')}
            </Button>
          }
        />
      </CardContent>
    </Card>
  );
}

/** A period without any valid result. */
export function DashboardEmpty({ action }: { action?: ReactNode }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card data-testid="dashboard-empty">
      <CardContent>
        <EmptyState
          icon={<BarChart3 aria-hidden className="size-10 text-muted-foreground/60" strokeWidth={1.25} />}
          title={t('state.emptyTitle')}
          description={t('state.emptyDescription')}
          action={action}
        />
      </CardContent>
    </Card>
  );
}

/**
 * A data-centre view's body: the skeleton while its first answer loads, the error with a retry when there is nothing to
 * draw, the empty state when nobody was tested, else `children(data)` with what the content needs.
 */
export function ViewBody<T>({
  query,
  data,
  empty = false,
  children,
}: {
  query: { isPending: boolean; error: Error | null; refetch(): unknown };
  /** What the content is drawn from; falsy until it can be drawn. */
  data: T | null | undefined | false;
  empty?: boolean;
  children(data: T): ReactNode;
}) {
  if (query.isPending) return <DashboardSkeleton />;
  if (!data) return <DashboardError message={query.error?.message} onRetry={() => void query.refetch()} />;
  if (empty) return <DashboardEmpty />;
  return children(data);
}
