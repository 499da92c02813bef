import { useSyncExternalStore } from 'react';

/** One subscribe function per query, so useSyncExternalStore keeps the same subscription across renders. */
const subscribers = new Map<string, (onChange: () => void) => () => void>();

function subscriberOf(query: string): (onChange: () => void) => () => void {
  let subscribe = subscribers.get(query);
  if (!subscribe) {
    subscribe = (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    };
    subscribers.set(query, subscribe);
  }
  return subscribe;
}

/** Whether a CSS media query matches now, following changes (rotation, resizing, a system setting); false on the server. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    subscriberOf(query),
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}
