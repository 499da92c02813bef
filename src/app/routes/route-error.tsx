import { RotateCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { NotFound } from './not-found';

/** What a screen shows when it throws while rendering: an apology and a reload, never a blank page. */
export function RouteError() {
  const { t } = useTranslation('pages');
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <div role="alert" data-testid="route-error" className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-20 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
        <TriangleAlert aria-hidden className="size-6" />
      </span>
      <h1 className="text-lg font-semibold">{t('error.title')}</h1>
      <p className="text-sm text-muted-foreground">{t('error.description')}</p>
      <Button onClick={() => window.location.reload()}>
        <RotateCw aria-hidden />
        {t('error.reload')}
      </Button>
    </div>
  );
}
