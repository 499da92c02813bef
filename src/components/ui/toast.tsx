import { useSyncExternalStore, type ReactNode } from 'react';
import { CircleCheck, CircleX, Info, TriangleAlert, X } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export interface ToastOptions {
  /** A second line under the message. */
  description?: ReactNode;
  /** ms before it closes itself; errors stay longer by default. */
  duration?: number;
  /** Reuse an id to replace a toast that is still shown (e.g. the same network error twice). */
  id?: string;
}

export interface ToastItem {
  id: string;
  kind: ToastKind;
  message: ReactNode;
  description?: ReactNode;
  duration: number;
  open: boolean;
}

const MAX_VISIBLE = 5;
const DEFAULT_DURATION: Record<ToastKind, number> = { success: 3000, info: 4000, warning: 5000, error: 6000 };
// Time the exit animation needs before a closed toast leaves the store.
const REMOVE_DELAY_MS = 300;

// A tiny module-level store so that non-React code (the axios client, plain helpers) can raise toasts.
let items: ToastItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]) {
  items = next;
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(kind: ToastKind, message: ReactNode, options: ToastOptions = {}): string {
  const id = options.id ?? `toast-${++counter}`;
  const item: ToastItem = {
    id,
    kind,
    message,
    description: options.description,
    duration: options.duration ?? DEFAULT_DURATION[kind],
    open: true,
  };
  const rest = items.filter((t) => t.id !== id);
  emit([...rest, item].slice(-MAX_VISIBLE));
  return id;
}

function dismiss(id?: string) {
  emit(items.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => emit(items.filter((t) => t.open)), REMOVE_DELAY_MS);
}

/** Raise a notification from anywhere: `toast.success(t('common:msg.saveOk'))`. Returns the toast id. */
export const toast = {
  success: (message: ReactNode, options?: ToastOptions) => show('success', message, options),
  error: (message: ReactNode, options?: ToastOptions) => show('error', message, options),
  warning: (message: ReactNode, options?: ToastOptions) => show('warning', message, options),
  info: (message: ReactNode, options?: ToastOptions) => show('info', message, options),
  /** Close one toast, or all of them without an id. */
  dismiss,
};

/** The toasts currently in the store (for tests and debugging). */
export function getToasts(): readonly ToastItem[] {
  return items;
}

const icons = { success: CircleCheck, error: CircleX, warning: TriangleAlert, info: Info } as const;
const iconClass: Record<ToastKind, string> = {
  success: 'text-success',
  error: 'text-destructive',
  warning: 'text-warning',
  info: 'text-primary',
};

/** Renders the toasts. Mount it once near the root of the app. */
export function Toaster() {
  const { t } = useTranslation('ui');
  const list = useSyncExternalStore(subscribe, getToasts, getToasts);
  return (
    <ToastPrimitive.Provider swipeDirection="right" label={t('toast.label')}>
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
            onOpenChange={(open) => (open ? undefined : dismiss(item.id))}
            className={cn(
              'pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border bg-popover p-4 pr-10 text-popover-foreground shadow-lg',
              'data-[state=open]:animate-slide-in-right data-[state=closed]:animate-fade-out',
              'data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-slide-out-right',
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
        // The empty viewport must not swallow clicks on the page under it; the toasts re-enable them.
        className="pointer-events-none fixed top-14 right-0 z-[100] m-0 flex max-h-screen w-full list-none flex-col gap-2 p-4 outline-none sm:max-w-sm"
      />
    </ToastPrimitive.Provider>
  );
}
