import { useEffect } from 'react';

/**
 * Puts the wall theme on <html> while the wall is shown: dark, high contrast, large type (src/styles/theme.css
 * `.wall`), and no page scrollbars around the scaled canvas. The console's own theme class is left as it was.
 */
export function useWallTheme(): void {
  useEffect(() => {
    const root = document.documentElement;
    root.classList.add('wall');
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      root.classList.remove('wall');
      document.body.style.overflow = overflow;
    };
  }, []);
}
