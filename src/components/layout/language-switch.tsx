import { Check, Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@/domain/constants';
import { toLocale } from '@/domain/i18n/language';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Select } from '@/components/ui/select';
import { Tooltip } from '@/components/ui/tooltip';
import { setLocale } from '@/lib/i18n';

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
    <DropdownMenu>
      <Tooltip content={t('language.label')}>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={t('language.label')} data-testid="language-menu" className={className}>
            <Languages aria-hidden />
          </Button>
        </DropdownMenuTrigger>
      </Tooltip>
      <DropdownMenuContent align="end">
        {LOCALES.map((l) => (
          <DropdownMenuItem key={l} onSelect={() => choose(l)} data-testid={`language-${l}`} lang={l.replace('_', '-')}>
            <Check aria-hidden className={l === current ? 'opacity-100' : 'opacity-0'} />
            {label(l)}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
