import { useMediaQuery } from './use-media-query';

/**
 * Below Tailwind's `md` breakpoint (48rem = 768 px): the phone layout (docs/decisions/054-phone-layout.md). The same
 * edge as the shell's drawer and every `max-md:` class, so a list turns into cards exactly where the menu folds.
 */
export const NARROW_QUERY = '(max-width: 767.98px)';

/**
 * Whether the viewport is phone-narrow, following rotation and resizing. For what CSS alone cannot switch: a different
 * element tree (a table's rows as cards), where rendering both and hiding one would double every row in the DOM.
 */
export function useNarrowViewport(): boolean {
  return useMediaQuery(NARROW_QUERY);
}
