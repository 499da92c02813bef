import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';
import { fieldClass } from '@/components/ui/input';

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea data-slot="textarea" className={cn(fieldClass, 'field-sizing-content min-h-20 px-3 py-2 max-md:text-base', className)} {...props} />;
}
