import { lazy, Suspense } from 'react';
import { ChevronDown, Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '@/domain/constants';
import { toLocale } from '@/domain/i18n/language';
import { Button } from '@/components/ui/button';
import { fieldClass } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { setLocale } from '@/lib/i18n';

// The header's menu needs Radix DropdownMenu; the login screen's select does not, so the menu is its own chunk.
const LanguageMenu = lazy(() => import('./language-menu').then((m) => ({ default: m.LanguageMenu })));

export interface LanguageSwitchProps {
  /** 'select' is the login screen's dropdown; 'menu' the header's icon button. */
  variant?: 'select' | 'menu';
  className?: string;
}

/** Switches every text on screen at once (docs/product-rules.md#languages: zh_cn default, zh_tw, en_us). */
export function LanguageSwitch({ variant = 'select', className }: LanguageSwitchProps) {
  const { t, i18n } = useTranslation('common');

  if (variant === 'select') {
    // A native select: accessible everywhere (keyboard, screen readers, touch) at no cost to the first screen.
    return (
      <div data-testid="language-select" className={cn('relative w-32', className)}>
        <select
          value={toLocale(i18n.language)}
          onChange={(e) => void setLocale(toLocale(e.target.value))}
          aria-label={t('language.label')}
          className={cn(fieldClass, 'h-8 cursor-pointer appearance-none bg-background/80 py-1 pr-8 pl-3 backdrop-blur')}
        >
          {LOCALES.map((l) => (
            <option key={l} value={l}>
              {t(`language.${l}`)}
            </option>
          ))}
        </select>
        <ChevronDown aria-hidden className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 opacity-50" />
      </div>
    );
  }
  return (
    <Suspense
      fallback={
        <Button variant="ghost" size="icon" aria-label={t('language.label')} disabled className={className}>
          <Languages aria-hidden />
        </Button>
      }
    >
      <LanguageMenu className={className} />
    </Suspense>
  );
}
