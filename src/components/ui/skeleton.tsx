import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/** A grey placeholder block shown while content loads; hidden from assistive tech. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="skeleton" aria-hidden className={cn('animate-pulse rounded-md bg-foreground/10', className)} {...props} />;
}
