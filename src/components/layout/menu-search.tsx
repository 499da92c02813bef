import { lazy, Suspense, useEffect, useMemo } from 'react';
import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { MenuNode } from '@/domain/auth/types';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Tooltip } from '@/components/ui/tooltip';
import { menuLabel } from './menu-label';
import type { SearchPage } from './menu-search-match';

// cmdk and pinyin-pro's dictionary load when the search first opens, not with the console.
const MenuSearchPanel = lazy(() => import('./menu-search-panel').then((m) => ({ default: m.MenuSearchPanel })));

/** The pages of a menu tree (leaves) with their groups' names, in the current language. */
export function useSearchPages(tree: readonly MenuNode[]): SearchPage[] {
  const { t } = useTranslation(['layout', 'menus']);
  return useMemo(() => {
    const out: SearchPage[] = [];
    const walk = (nodes: readonly MenuNode[], trail: string[]) => {
      for (const n of nodes) {
        const label = menuLabel(t, n);
        if (n.children.length) walk(n.children, [...trail, label]);
        else if (n.menuPath) out.push({ path: n.menuPath, label, trail, zhName: n.menuName });
      }
    };
    walk(tree, []);
    return out;
    // `t` changes with the language, and the labels with it.
  }, [tree, t]);
}

export interface MenuSearchProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  pages: readonly SearchPage[];
  recent: readonly SearchPage[];
  onOpen(path: string): void;
  /** Shortcut off (the lock screen is up). */
  disabled?: boolean;
}

/** Ctrl/⌘ + K, and the header's search button (touch), open the menu search (docs/product-rules.md#menu-search). */
export function MenuSearch({ open, onOpenChange, pages, recent, onOpen, disabled }: MenuSearchProps) {
  const { t } = useTranslation('layout');
  useEffect(() => {
    if (disabled) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        onOpenChange(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [disabled, onOpenChange]);

  return (
    <>
      <Tooltip content={`${t('search.open')} (${t('search.shortcut')})`}>
        <Button variant="ghost" size="icon" aria-label={t('search.open')} aria-keyshortcuts="Control+K Meta+K" data-testid="menu-search-open" onClick={() => onOpenChange(true)}>
          <Search aria-hidden />
        </Button>
      </Tooltip>
      <Dialog open={open && !disabled} onOpenChange={onOpenChange}>
        <DialogContent showCloseButton={false} aria-describedby={undefined} className="top-[12vh] translate-y-0 gap-0 overflow-hidden p-0 sm:max-w-xl" data-testid="menu-search">
          <DialogTitle className="sr-only">{t('search.title')}</DialogTitle>
          <Suspense
            fallback={
              <div className="flex h-24 items-center justify-center">
                <Spinner />
              </div>
            }
          >
            <MenuSearchPanel
              pages={pages}
              recent={recent}
              onOpen={(path) => {
                onOpenChange(false);
                onOpen(path);
              }}
            />
          </Suspense>
        </DialogContent>
      </Dialog>
    </>
  );
}
