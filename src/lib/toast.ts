// The toast store: a tiny module-level store, so that non-React code (the API client, the query client, plain helpers)
// raises toasts without importing a component; `Toaster` (src/components/ui/toast.tsx) renders them.
import type { ReactNode } from 'react';

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

let items: ToastItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]) {
  items = next;
  for (const l of listeners) l();
}

/** Calls `listener` whenever the toasts change (the Toaster's useSyncExternalStore). */
export function subscribe(listener: () => void) {
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

/** Closes one toast, or all of them without an id. */
export function dismiss(id?: string) {
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

