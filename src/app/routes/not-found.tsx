import { useAtomValue } from 'jotai';
import { Compass } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { landingPath } from '@/domain/menus/tree';
import { Button } from '@/components/ui/button';
import { uinfoAtom } from '@/lib/store';

/** 404: no such page, or a page of another role family (docs/product-rules.md#screens-and-routes). */
export function NotFound() {
  const { t } = useTranslation('pages');
  const uinfo = useAtomValue(uinfoAtom);
  const home = (uinfo && landingPath(uinfo.menuTree)) || (uinfo ? '/myInfo/base' : '/');
  return (
    <div data-testid="not-found" className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <Compass aria-hidden className="size-7" />
      </span>
      <p className="text-5xl font-bold tracking-tight text-primary">404</p>
      <h1 className="text-lg font-semibold">{t('notFound.title')}</h1>
      <p className="text-sm text-muted-foreground">{t('notFound.description')}</p>
      <Button asChild className="mt-2">
        <Link to={home}>{t('notFound.home')}</Link>
      </Button>
    </div>
  );
}
