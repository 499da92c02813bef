import { lazy, Suspense, useState } from 'react';
import { MonitorPlay } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

// The manager (its form kit, react-hook-form, checkboxes, the link list) loads when the dialog opens, not with the
// dashboard that shows the button (docs/performance.md, data-centre page).
const ScreenLinksManager = lazy(() => import('./screen-links-manager').then((m) => ({ default: m.ScreenLinksManager })));

/**
 * Wall-display links of the organisation (docs/product-rules.md#wall-display): create one with a playlist, copy its URL (shown once: only a
 * hash of the token is kept), and revoke. Rendered only for roles holding the screen-link permission.
 */
export function ScreenLinksButton() {
  const { t } = useTranslation('dashboard');
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="screen-links-open">
          <MonitorPlay aria-hidden />
          {t('screenLinks.open')}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl" data-testid="screen-links-dialog">
        <DialogHeader>
          <DialogTitle>{t('screenLinks.title')}</DialogTitle>
          <DialogDescription>{t('screenLinks.description')}</DialogDescription>
        </DialogHeader>
        {open ? (
          <Suspense fallback={<Spinner className="mx-auto text-2xl text-primary" label={t('screenLinks.title')} />}>
            <ScreenLinksManager />
          </Suspense>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

