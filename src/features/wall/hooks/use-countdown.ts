import { useEffect, useState } from 'react';

/** Whole seconds left until `updatedAt + intervalMs` at time `now` (never negative). */
export function secondsUntilRefresh(now: number, updatedAt: number, intervalMs: number): number {
  if (!updatedAt || intervalMs <= 0) return 0;
  return Math.max(0, Math.ceil((updatedAt + intervalMs - now) / 1000));
}

/** A once-a-second countdown to the next automatic refresh of data last updated at `updatedAt` (ms). */
export function useRefreshCountdown(updatedAt: number, intervalMs: number): number {
  const [clock, setClock] = useState(() => ({ now: Date.now(), updatedAt }));
  // A fresh answer restarts the count at once instead of waiting for the next tick.
  if (clock.updatedAt !== updatedAt) setClock({ now: Math.max(clock.now, updatedAt), updatedAt });
  useEffect(() => {
    const timer = setInterval(() => setClock((c) => ({ ...c, now: Date.now() })), 1000);
    return () => clearInterval(timer);
  }, []);
  return secondsUntilRefresh(clock.now, updatedAt, intervalMs);
}
