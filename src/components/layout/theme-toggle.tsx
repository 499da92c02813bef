import { useAtom } from 'jotai';
import { Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { themeAtom } from '@/lib/store';

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
