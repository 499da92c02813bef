import { useEffect } from 'react';
import { useAtomValue } from 'jotai';
import { themeAtom } from '@/lib/store';

/** Keeps `.dark` on <html> in step with the stored theme. Mount once (src/app/provider.tsx). */
export function useThemeClass(): void {
  const theme = useAtomValue(themeAtom);
  useEffect(() => {
    document.documentElement.classList.toggle('dark', theme === 'dark');
  }, [theme]);
}
