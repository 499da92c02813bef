import { useMediaQuery } from './use-media-query';

/**
 * Whether the person asked the system for less motion: what CSS cannot switch off (ECharts animates on its canvas),
 * as globals.css does for CSS animations and transitions.
 */
export function useReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}
