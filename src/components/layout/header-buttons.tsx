import { useEffect, useState } from 'react';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { Maximize, Minimize, RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';

/** The console in full screen and back (Fullscreen API); absent where the browser has none (iPhone Safari). */
export function FullscreenButton({ className }: { className?: string }) {
  const { t } = useTranslation('layout');
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  if (typeof document === 'undefined' || !document.fullscreenEnabled) return null;
  const label = full ? t('fullscreen.exit') : t('fullscreen.enter');
  return (
    <Tooltip content={label}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={label}
        aria-pressed={full}
        data-testid="fullscreen-toggle"
        className={className}
        onClick={() => void (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => undefined)}
      >
        {full ? <Minimize aria-hidden /> : <Maximize aria-hidden /> }
      </Button>
    </Tooltip>
  );
}

/**
 * Reloads the data of the page shown, not the page: every query marked stale, the screen's mounted ones fetched again
 * (docs/product-rules.md#tab-bar); a form being typed keeps what was typed.
 */
export function RefreshDataButton({ className }: { className?: string }) {
  const { t } = useTranslation('layout');
  const queryClient = useQueryClient();
  const fetching = useIsFetching() > 0;
  return (
    <Tooltip content={t('refreshData')}>
      <Button variant="ghost" size="icon" aria-label={t('refreshData')} data-testid="refresh-data" className={className} onClick={() => void queryClient.invalidateQueries({ refetchType: 'active' })}>
        <RotateCw aria-hidden className={cn(fetching && 'animate-spin')} />
      </Button>
    </Tooltip>
  );
}
