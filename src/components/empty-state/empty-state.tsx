import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Inbox } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface EmptyStateProps {
  /** Defaults to the shared "no data" text. */
  title?: ReactNode;
  description?: ReactNode;
  /** Replaces the default inbox icon; pass `null` for none. */
  icon?: ReactNode;
  /** A call to action, e.g. a Button to create the first record. */
  action?: ReactNode;
  className?: string;
}

/** What a list, table or chart shows when it has nothing to show. */
export function EmptyState({ title, description, icon, action, className }: EmptyStateProps) {
  const { t } = useTranslation('components');
  return (
    <div
      data-slot="empty-state"
      role="status"
      className={cn('flex flex-col items-center justify-center gap-2 px-4 py-10 text-center', className)}
    >
      {icon === undefined ? <Inbox aria-hidden className="size-10 text-muted-foreground/60" strokeWidth={1.25} /> : icon}
      <p className="text-sm font-medium text-foreground">{title ?? t('empty.title')}</p>
      {description ? <p className="max-w-sm text-sm text-muted-foreground">{description}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
