import { useEffect } from 'react';

/**
 * Keeps the screen awake while mounted (Screen Wake Lock API). The browser drops the lock whenever the
 * page is hidden, so it is requested again each time the page becomes visible. Browsers without the
 * API, or refusing it (battery saver, insecure origin), are ignored: the wall works, the screen may sleep.
 */
export function useWakeLock(enabled = true): void {
  useEffect(() => {
    if (!enabled || typeof navigator === 'undefined' || !('wakeLock' in navigator) || !navigator.wakeLock) return;
    const wakeLock = navigator.wakeLock;
    let sentinel: WakeLockSentinel | null = null;
    let pending = false;
    let disposed = false;

    const acquire = async () => {
      if (pending || document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      pending = true;
      try {
        const next = await wakeLock.request('screen');
        if (disposed) void next.release();
        else sentinel = next;
      } catch {
        /* refused: nothing to do, the display simply may sleep */
      } finally {
        pending = false;
      }
    };
    const onVisibility = () => void acquire();

    void acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      disposed = true;
      document.removeEventListener('visibilitychange', onVisibility);
      if (sentinel && !sentinel.released) void sentinel.release().catch(() => {});
    };
  }, [enabled]);
}
