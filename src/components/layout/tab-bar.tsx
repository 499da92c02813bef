import { useEffect, useRef, useState } from 'react';
import { ChevronDown, Pin, RotateCw, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/cn';
import type { PageTabs } from './use-page-tabs';

export interface TabBarProps extends PageTabs {
  /** The fixed (landing) tab's key: no close. */
  fixedKey: string;
  /** A page's name: its menu name, a sub-route's catalogue name. */
  labelOf(path: string): string;
}

/**
 * The tab bar under the header (docs/product-rules.md#tab-bar): one link per open page, a × on each but the fixed
 * landing tab (Delete on a focused tab closes it too), and one actions menu (refresh, close, close others, close to the right) for the active tab, or
 * for the tab right-clicked (or opened with the context-menu key). Hidden below md: on a phone the header and the
 * screen need the height, and the menu search and the back button switch pages there.
 */
export function TabBar({ tabs, active, fixedKey, labelOf, close, closeOthers, closeRight, refresh }: TabBarProps) {
  const { t } = useTranslation('layout');
  const [menuOpen, setMenuOpen] = useState(false);
  const [target, setTarget] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const subject = target && tabs.some((x) => x.key === target) ? target : active;
  const subjectIndex = tabs.findIndex((x) => x.key === subject);
  const subjectName = labelOf(subject);

  useEffect(() => {
    listRef.current?.querySelector('[aria-current="page"]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  return (
    <nav aria-label={t('tabs.label')} data-testid="tab-bar" className="hidden h-10 shrink-0 items-stretch gap-1 border-b bg-card px-2 md:flex">
      <ul ref={listRef} className="flex min-w-0 flex-1 items-end gap-1 overflow-x-auto pt-1 [scrollbar-width:thin]">
        {tabs.map((tab) => {
          const name = labelOf(tab.key);
          const isActive = tab.key === active;
          const fixed = tab.key === fixedKey;
          return (
            <li
              key={tab.key}
              data-testid="page-tab"
              data-key={tab.key}
              data-active={isActive || undefined}
              className={cn(
                'group/tab flex h-8 shrink-0 items-center rounded-t-md border border-b-0 text-[13px] transition-colors',
                isActive ? 'border-border bg-background font-medium text-foreground' : 'border-transparent text-muted-foreground hover:bg-accent hover:text-foreground',
              )}
            >
              <Link
                to={tab.url}
                aria-current={isActive ? 'page' : undefined}
                className="flex h-full max-w-48 items-center gap-1.5 rounded-t-md pr-1 pl-3 outline-none focus-visible:ring-2 focus-visible:ring-ring"
                aria-keyshortcuts={fixed ? undefined : 'Delete'}
                onKeyDown={(e) => {
                  if (e.key === 'Delete' && !fixed) {
                    e.preventDefault();
                    close(tab.key);
                  }
                }}
                onContextMenu={(e) => {
                  e.preventDefault();
                  setTarget(tab.key);
                  setMenuOpen(true);
                }}
              >
                {fixed ? <Pin aria-hidden className="size-3 shrink-0 opacity-60" /> : null}
                <span className="truncate">{name}</span>
                {fixed ? <span className="sr-only">{t('tabs.fixed')}</span> : null}
              </Link>
              {fixed ? (
                <span className="w-2" />
              ) : (
                // The pointer's ×; keyboards close with Delete on the tab or through the actions menu, so the bar adds no
                // "close <page>" buttons that a page's own buttons (查询 …) would share words with.
                <span
                  aria-hidden
                  data-testid="page-tab-close"
                  onClick={() => close(tab.key)}
                  className="mr-1 flex size-5 cursor-pointer items-center justify-center rounded-sm opacity-60 hover:bg-muted hover:opacity-100"
                >
                  <X className="size-3.5" />
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <DropdownMenu
        open={menuOpen}
        onOpenChange={(open) => {
          setMenuOpen(open);
          if (!open) setTarget(null);
        }}
      >
        <DropdownMenuTrigger asChild>
          <button
            type="button"
            data-testid="page-tab-actions"
            aria-label={t('tabs.actions')}
            className="my-1 flex size-8 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            <ChevronDown aria-hidden className="size-4" />
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="min-w-44" data-testid="page-tab-menu">
          <DropdownMenuLabel className="max-w-56 truncate text-xs font-normal text-muted-foreground">{subjectName}</DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem data-testid="page-tab-refresh" onSelect={() => refresh(subject)}>
            <RotateCw aria-hidden />
            {t('tabs.refresh')}
          </DropdownMenuItem>
          <DropdownMenuItem data-testid="page-tab-close-this" disabled={subject === fixedKey} onSelect={() => close(subject)}>
            {t('tabs.closeThis')}
          </DropdownMenuItem>
          <DropdownMenuItem data-testid="page-tab-close-others" disabled={tabs.length <= 2 && tabs.every((x) => x.key === fixedKey || x.key === subject)} onSelect={() => closeOthers(subject)}>
            {t('tabs.closeOthers')}
          </DropdownMenuItem>
          <DropdownMenuItem data-testid="page-tab-close-right" disabled={subjectIndex < 0 || subjectIndex === tabs.length - 1} onSelect={() => closeRight(subject)}>
            {t('tabs.closeRight')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </nav>
  );
}
