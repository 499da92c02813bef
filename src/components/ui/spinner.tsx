import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';

export interface SpinnerProps {
  className?: string;
  /** Accessible name; defaults to the translated "Loading". */
  label?: string;
}

/** An animated loading indicator, announced politely to screen readers. */
export function Spinner({ className, label }: SpinnerProps) {
  const { t } = useTranslation('ui');
  const name = label ?? t('loading');
  return (
    <span data-slot="spinner" role="status" aria-label={name} className={cn('inline-flex items-center justify-center text-current', className)}>
      <LoaderCircle aria-hidden className="size-[1em] min-h-4 min-w-4 animate-spin" />
    </span>
  );
}
