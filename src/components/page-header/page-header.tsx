import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { cn } from '@/lib/cn';

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right. */
  actions?: ReactNode;
  /**
   * A back button to the previous page. It asks first whether to leave, since page data is not saved
   * (docs/product-rules.md#screens-and-routes), unless `{ safe: true }` (e.g. on read-only detail pages).
   */
  back?: boolean | { safe?: boolean };
  className?: string;
}

/** Title bar of a screen: optional back button, title, description, actions. */
export function PageHeader({ title, description, actions, back, className }: PageHeaderProps) {
  const { t } = useTranslation('components');
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const safe = typeof back === 'object' && back.safe === true;

  const goBack = () => {
    void navigate(-1);
  };

  return (
    <header data-slot="page-header" className={cn('flex flex-wrap items-start justify-between gap-3 pb-4', className)}>
      <div className="flex min-w-0 items-start gap-2">
        {back ? (
          <Button
            variant="ghost"
            size="icon"
            className="mt-0.5 shrink-0"
            aria-label={t('pageHeader.back')}
            onClick={() => (safe ? goBack() : setConfirming(true))}
          >
            <ArrowLeft className="size-5" />
          </Button>
        ) : null}
        <div className="min-w-0">
          <h1 className="truncate text-xl leading-9 font-semibold text-foreground">{title}</h1>
          {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
        </div>
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      {back && !safe ? (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={t('pageHeader.confirmTitle')}
          description={t('pageHeader.confirmContent')}
          onConfirm={goBack}
        />
      ) : null}
    </header>
  );
}
