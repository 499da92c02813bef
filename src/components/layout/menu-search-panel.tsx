import { useEffect, useMemo, useRef, useState } from 'react';
import { Command } from 'cmdk';
import { Clock, FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { preparePages, searchPages, type SearchPage } from './menu-search-match';

export interface MenuSearchPanelProps {
  pages: readonly SearchPage[];
  /** Recently opened pages, newest first (shown while nothing is typed). */
  recent: readonly SearchPage[];
  onOpen(path: string): void;
}

/** cmdk values of the two groups' items (a page may be in both). */
const RECENT = 'recent:';
const PAGE = 'page:';

const itemClass =
  'flex cursor-pointer items-center gap-2.5 rounded-md px-3 py-2 text-sm outline-none data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground';

/**
 * The command menu of the menu search (cmdk; a lazy chunk with pinyin-pro): the permitted pages matched in the current
 * language and by pinyin (docs/product-rules.md#menu-search); ↑↓ choose, Enter opens.
 */
export function MenuSearchPanel({ pages, recent, onOpen }: MenuSearchPanelProps) {
  const { t } = useTranslation('layout');
  const [query, setQuery] = useState('');
  const prepared = useMemo(() => preparePages(pages), [pages]);
  const found = useMemo(() => searchPages(prepared, query), [prepared, query]);
  const typing = query.trim() !== '';
  // The panel arrives after the dialog has opened (a lazy chunk), so the dialog's own first focus missed the input.
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);
  const item = (page: SearchPage, prefix: string, Icon: typeof Clock) => (
    <Command.Item key={`${prefix}${page.path}`} value={`${prefix}${page.path}`} onSelect={() => onOpen(page.path)} className={itemClass} data-testid="menu-search-item" data-path={page.path}>
      <Icon aria-hidden className="size-4 shrink-0 opacity-60" />
      <span className="truncate">{page.label}</span>
      {page.trail.length ? <span className="ml-auto truncate pl-3 text-xs text-muted-foreground">{page.trail.join(' / ')}</span> : null}
    </Command.Item>
  );
  return (
    <Command shouldFilter={false} loop label={t('search.title')} className="flex flex-col">
      <Command.Input
        ref={inputRef}
        value={query}
        onValueChange={setQuery}
        placeholder={t('search.placeholder')}
        aria-label={t('search.placeholder')}
        data-testid="menu-search-input"
        className="h-12 w-full border-b bg-transparent px-4 text-base outline-none placeholder:text-muted-foreground"
      />
      <Command.List className="max-h-[min(60vh,26rem)] overflow-y-auto p-2">
        <Command.Empty className="py-8 text-center text-sm text-muted-foreground">{t('search.empty')}</Command.Empty>
        {!typing && recent.length ? (
          <Command.Group heading={t('search.recent')} className="[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-muted-foreground">
            {recent.map((p) => item(p, RECENT, Clock))}
          </Command.Group>
        ) : null}
        {found.length ? (
          <Command.Group heading={t('search.pages')} className="[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-muted-foreground">
            {found.map((p) => item(p, PAGE, FileText))}
          </Command.Group>
        ) : null}
      </Command.List>
    </Command>
  );
}
