import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { dismiss, getToasts, subscribe } from '@/lib/toast';

// The Radix rendering loads with the first toast, not with the first screen (docs/decisions/012-lean-first-screen.md); toasts
// raised meanwhile wait in the store above and show once it is in.
const ToastList = lazy(() => import('./toast-list').then((m) => ({ default: m.ToastList })));

/** Renders the toasts. Mount it once near the root of the app. */
export function Toaster() {
  const list = useSyncExternalStore(subscribe, getToasts, getToasts);
  // Once needed it stays mounted: closing toasts animate out, and Radix keeps its viewport.
  const [needed, setNeeded] = useState(false);
  if (!needed && list.length > 0) setNeeded(true);
  if (!needed && list.length === 0) return null;
  return (
    <Suspense>
      <ToastList items={list} onClose={dismiss} />
    </Suspense>
  );
}
