import { CircleCheck, CircleX, Info, TriangleAlert, X } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import type { ToastItem, ToastKind } from '@/lib/toast';

const icons = { success: CircleCheck, error: CircleX, warning: TriangleAlert, info: Info } as const;
const iconClass: Record<ToastKind, string> = {
  success: 'text-success',
  error: 'text-destructive',
  warning: 'text-warning',
  info: 'text-primary',
};

/** The toasts of the store in Radix Toast (src/components/ui/toast.tsx loads it with the first toast). */
export function ToastList({ items: list, onClose }: { items: readonly ToastItem[]; onClose(id: string): void }) {
  const { t } = useTranslation('ui');
  return (
    <ToastPrimitive.Provider swipeDirection="up" label={t('toast.label')}>
      {list.map((item) => {
        const Icon = icons[item.kind];
        return (
          <ToastPrimitive.Root
            key={item.id}
            data-slot="toast"
            data-kind={item.kind}
            open={item.open}
            duration={item.duration}
            // Errors and warnings interrupt the screen reader; the rest wait politely.
            type={item.kind === 'error' || item.kind === 'warning' ? 'foreground' : 'background'}
            onOpenChange={(open) => (open ? undefined : onClose(item.id))}
            className={cn(
              'pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border bg-popover p-4 pr-10 text-popover-foreground shadow-lg',
              'data-[state=open]:animate-slide-in-top data-[state=closed]:animate-fade-out',
              'data-[swipe=move]:translate-y-(--radix-toast-swipe-move-y) data-[swipe=cancel]:translate-y-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-slide-out-top',
            )}
          >
            <Icon aria-hidden className={cn('mt-0.5 size-5 shrink-0', iconClass[item.kind])} />
            <div className="grid min-w-0 gap-1">
              <ToastPrimitive.Title data-slot="toast-title" className="text-sm font-medium break-words">
                {item.message}
              </ToastPrimitive.Title>
              {item.description && (
                <ToastPrimitive.Description data-slot="toast-description" className="text-sm text-muted-foreground">
                  {item.description}
                </ToastPrimitive.Description>
              )}
            </div>
            <ToastPrimitive.Close
              data-slot="toast-close"
              aria-label={t('close')}
              className="absolute top-3 right-3 rounded-sm p-0.5 opacity-60 transition-opacity outline-none hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <X aria-hidden className="size-4" />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        );
      })}
      <ToastPrimitive.Viewport
        data-slot="toaster"
        label={t('toast.viewport')}
        // Top centre, below the header: a page's title sits left and its actions right, so a toast covers neither
        // (at the top right it hid "新增" right after a save). The empty viewport must not swallow clicks on the page
        // under it; the toasts re-enable them.
        className="pointer-events-none fixed top-14 left-1/2 z-[100] m-0 flex max-h-screen w-full -translate-x-1/2 list-none flex-col gap-2 p-4 outline-none sm:max-w-sm"
      />
    </ToastPrimitive.Provider>
  );
}
