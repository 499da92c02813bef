import { useEffect } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { themeAtom } from '@/lib/store';

/** Keeps `.dark` on <html> in step with the stored theme. Mount once. */
export function useThemeClass(): void {
  const theme = useAtomValue(themeAtom);
  useEffect(() => {
    document.documentElement.classList.toggle('dark', theme === 'dark');
  }, [theme]);
}

export function ThemeToggle({ className }: { className?: string }) {
  const { t } = useTranslation('layout');
  const [theme, setTheme] = useAtom(themeAtom);
  const dark = theme === 'dark';
  const label = dark ? t('theme.toLight') : t('theme.toDark');
  return (
    <Tooltip content={label}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={label}
        aria-pressed={dark}
        data-testid="theme-toggle"
        className={className}
        onClick={() => setTheme(dark ? 'light' : 'dark')}
      >
        {dark ? <Sun aria-hidden /> : <Moon aria-hidden />}
      </Button>
    </Tooltip>
  );
}
