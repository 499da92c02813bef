import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronLeft, ChevronRight, Ellipsis } from 'lucide-react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@/domain/constants';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { cn } from '@/lib/cn';

/** Server paging state of a table (docs/product-rules.md#lists: sizes 10/20/50/80, quick jump, total count). */
export interface DataTablePaginationState {
  /** 1-based page number. */
  current: number;
  size: number;
  total: number;
  onChange(current: number, size: number): void;
}

/**
 * The page a server-paged list shows: `paging` goes into the list query, `pagination(total)` into DataTable, and
 * `toFirstPage()` when the filters change.
 */
export function usePaging() {
  const [paging, setPaging] = useState({ current: 1, size: DEFAULT_PAGE_SIZE });
  return {
    paging,
    toFirstPage: () => setPaging((p) => ({ ...p, current: 1 })),
    pagination: (total: number): DataTablePaginationState => ({
      current: paging.current,
      size: paging.size,
      total,
      onChange: (current, size) => setPaging({ current, size }),
    }),
  };
}

export type PageItem = number | 'jump-prev' | 'jump-next';

/** Number of pages for a total and a page size; at least 1 so an empty list still shows page 1. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, size)));
}

/** Page buttons to show: all pages up to 7, else first, last and a window of 5 around the current page with jumps. */
export function pageItems(current: number, count: number): PageItem[] {
  if (count <= 7) return Array.from({ length: count }, (_, i) => i + 1);
  let from = Math.max(2, current - 2);
  let to = Math.min(count - 1, current + 2);
  if (current <= 4) [from, to] = [2, 5];
  if (current >= count - 3) [from, to] = [count - 4, count - 1];
  const items: PageItem[] = [1];
  if (from > 2) items.push('jump-prev');
  for (let p = from; p <= to; p++) items.push(p);
  if (to < count - 1) items.push('jump-next');
  items.push(count);
  return items;
}

/** Jump distance of the ellipsis buttons. */
const JUMP = 5;

export function DataTablePagination({ current, size, total, onChange, disabled }: DataTablePaginationState & { disabled?: boolean }) {
  const { t } = useTranslation('components');
  const count = pageCount(total, size);
  const page = Math.min(Math.max(1, current), count);
  const [jump, setJump] = useState('');

  const go = (target: number) => {
    const next = Math.min(Math.max(1, Math.trunc(target)), count);
    if (next !== page) onChange(next, size);
  };

  // Quick jump on Enter or when the field loses focus, like the common admin-console pager.
  const commitJump = () => {
    if (jump !== '') go(Number(jump));
    setJump('');
  };
  const onJumpKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commitJump();
  };

  return (
    <nav
      data-slot="data-table-pagination"
      aria-label={t('dataTable.pagination')}
      className="flex flex-wrap items-center justify-end gap-2 py-3 text-sm text-muted-foreground"
    >
      <span data-slot="data-table-total">{t('dataTable.total', { total })}</span>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t('dataTable.prev')}
        disabled={disabled || page <= 1}
        onClick={() => go(page - 1)}
      >
        <ChevronLeft className="size-4" />
      </Button>
      <ul className="flex items-center gap-1">
        {pageItems(page, count).map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <Button
                variant={item === page ? 'outline' : 'ghost'}
                size="sm"
                className={cn('min-w-8 px-2', item === page && 'border-primary text-primary')}
                aria-current={item === page ? 'page' : undefined}
                aria-label={t('dataTable.pageN', { page: item })}
                disabled={disabled}
                onClick={() => go(item)}
              >
                {item}
              </Button>
            </li>
          ) : (
            <li key={item}>
              <Button
                variant="ghost"
                size="sm"
                className="min-w-8 px-2"
                aria-label={item === 'jump-prev' ? t('dataTable.jumpPrev', { pages: JUMP }) : t('dataTable.jumpNext', { pages: JUMP })}
                disabled={disabled}
                onClick={() => go(item === 'jump-prev' ? page - JUMP : page + JUMP)}
              >
                <Ellipsis className="size-4" />
              </Button>
            </li>
          ),
        )}
      </ul>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t('dataTable.next')}
        disabled={disabled || page >= count}
        onClick={() => go(page + 1)}
      >
        <ChevronRight className="size-4" />
      </Button>
      <Select
        className="h-8 w-28"
        aria-label={t('dataTable.pageSize')}
        value={String(size)}
        disabled={disabled}
        onValueChange={(v) => onChange(1, Number(v))}
        options={PAGE_SIZES.map((s) => ({ value: String(s), label: t('dataTable.perPage', { size: s }) }))}
      />
      <label className="flex items-center gap-1 whitespace-nowrap">
        {t('dataTable.jumpTo')}
        <Input
          className="h-8 w-14 text-center"
          inputMode="numeric"
          aria-label={t('dataTable.jumpInput')}
          value={jump}
          disabled={disabled}
          onChange={(e) => setJump(e.target.value.replace(/\D/g, ''))}
          onKeyDown={onJumpKey}
          onBlur={commitJump}
        />
        {t('dataTable.page')}
      </label>
    </nav>
  );
}
