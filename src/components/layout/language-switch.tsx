import { lazy, Suspense } from 'react';
import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@/domain/constants';
import { toLocale } from '@/domain/i18n/language';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { setLocale } from '@/lib/i18n';

// The header's menu needs Radix DropdownMenu; the login screen's select does not, so the menu is its own chunk.
const LanguageMenu = lazy(() => import('./language-menu').then((m) => ({ default: m.LanguageMenu })));

export interface LanguageSwitchProps {
  /** 'select' is the login screen's dropdown; 'menu' the header's icon button. */
  variant?: 'select' | 'menu';
  className?: string;
}

/** Switches every text on screen at once (spec §1: zh_cn default, zh_tw, en_us). */
export function LanguageSwitch({ variant = 'select', className }: LanguageSwitchProps) {
  const { t, i18n } = useTranslation('common');
  const current = toLocale(i18n.language);
  const choose = (value: string) => void setLocale(toLocale(value));
  const label = (l: Locale) => t(`language.${l}`);

  if (variant === 'select') {
    return (
      <div data-testid="language-select" className={className}>
        <Select
          value={current}
          onValueChange={choose}
          aria-label={t('language.label')}
          options={LOCALES.map((l) => ({ value: l, label: label(l) }))}
          className="h-8 w-32 bg-background/80 backdrop-blur"
        />
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
