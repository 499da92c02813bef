import { Check, Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@/domain/constants';
import { toLocale } from '@/domain/i18n/language';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Tooltip } from '@/components/ui/tooltip';
import { setLocale } from '@/lib/i18n';

/** The header's language button and menu (LanguageSwitch variant 'menu'). */
export function LanguageMenu({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  const current = toLocale(i18n.language);
  const label = (l: Locale) => t(`language.${l}`);
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
          <DropdownMenuItem key={l} onSelect={() => void setLocale(l)} data-testid={`language-${l}`} lang={l.replace('_', '-')}>
            <Check aria-hidden className={l === current ? 'opacity-100' : 'opacity-0'} />
            {label(l)}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
