import { useState } from 'react';
import { Trophy } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface BrandMarkProps {
  /** Organisation icon URL; the default mark shows when it is empty or fails to load (docs/product-rules.md#branding). */
  icon?: string | null;
  /** Accessible name of the image (the platform title). */
  name: string;
  className?: string;
}

/** The organisation's icon, or the product's default mark. */
export function BrandMark({ icon, name, className }: BrandMarkProps) {
  const [failed, setFailed] = useState<string | null>(null);
  if (icon && failed !== icon) {
    return (
      <img
        data-slot="brand-mark"
        src={icon}
        alt={name}
        onError={() => setFailed(icon)}
        className={cn('size-8 shrink-0 rounded-lg object-contain', className)}
      />
    );
  }
  return (
    <span
      data-slot="brand-mark"
      role="img"
      aria-label={name}
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-sky-500 to-teal-500 text-white shadow-sm',
        className,
      )}
    >
      <Trophy aria-hidden className="size-[55%]" strokeWidth={2.2} />
    </span>
  );
}
