import { useDeferredValue, useId, useRef, useState, type KeyboardEvent } from 'react';
import { hashKey, useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { Popover, PopoverAnchor, PopoverContent } from '@/components/ui/popover';
import { cn } from '@/lib/cn';

/** One choice of a picker: the record's id, its name and a line that tells namesakes apart (a mobile, a class). */
export interface PickerOption {
  id: string;
  name: string;
  hint?: string;
}

export interface SearchPickerProps<O extends PickerOption = PickerOption> {
  /** Query key of the search (the resource's key): the answers are cached per keyword. */
  queryKey: readonly unknown[];
  /** The server's matches for what was typed ('' = the first few); an option may carry more than it shows. */
  search(keyword: string): Promise<O[]>;
  /** Called with the chosen option (as `search` gave it); the field keeps what was picked. */
  onPick(option: O): void;
  /** Ids already picked: not offered again. */
  exclude?: ReadonlySet<string>;
  placeholder?: string;
  /** The input's accessible name. */
  label: string;
  disabled?: boolean;
  'data-testid'?: string;
}

/**
 * A search box over records of the server (a combobox): typing searches, arrow keys move through the matches, Enter
 * or a click picks one and empties the box for the next. Used where a form links records that are too many for a
 * select (a student's parents, a parent's children, a meet's athletes and relay runners).
 */
export function SearchPicker<O extends PickerOption = PickerOption>({ queryKey, search, onPick, exclude, placeholder, label, disabled, 'data-testid': testId }: SearchPickerProps<O>) {
  const { t } = useTranslation('components');
  const id = useId();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const keyword = useDeferredValue(text.trim());
  // While a new keyword loads, the last matches stay on screen; never those of another scope (the relay team's class
  // once its first runner is picked), which could be picked before the scope's own matches arrive.
  const scope = hashKey(queryKey);
  const query = useQuery({
    queryKey: [...queryKey, 'picker', keyword],
    queryFn: () => search(keyword),
    enabled: open,
    placeholderData: (previous, previousQuery) => (previousQuery && hashKey(previousQuery.queryKey.slice(0, -2)) === scope ? previous : undefined),
  });
  const options = (query.data ?? []).filter((o) => !exclude?.has(o.id));
  const pick = (o: O | undefined) => {
    if (!o) return;
    onPick(o);
    setText('');
    setActive(0);
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (options.length ? (a + step + options.length) % options.length : 0));
    } else if (e.key === 'Enter' && open) {
      e.preventDefault();
      pick(options[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    }
  };
  const listId = `${id}-list`;
  return (
    <Popover open={open && !disabled} onOpenChange={setOpen}>
      <PopoverAnchor asChild>
        <div ref={box} className="relative">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            role="combobox"
            aria-label={label}
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={open && options[active] ? `${id}-${options[active].id}` : undefined}
            value={text}
            placeholder={placeholder ?? t('picker.search')}
            disabled={disabled}
            className="pl-8"
            maxLength={64}
            data-testid={testId}
            onFocus={() => setOpen(true)}
            onClick={() => setOpen(true)}
            onChange={(e) => {
              setText(e.target.value);
              setActive(0);
              setOpen(true);
            }}
            onKeyDown={onKeyDown}
          />
        </div>
      </PopoverAnchor>
      <PopoverContent
        align="start"
        className="w-(--radix-popover-trigger-width) min-w-72 p-1"
        onOpenAutoFocus={(e) => e.preventDefault()}
        onInteractOutside={(e) => {
          // Clicks in the box itself keep the list open.
          if (e.target instanceof Node && box.current?.contains(e.target)) e.preventDefault();
        }}
      >
        <ul id={listId} role="listbox" aria-label={label} className="max-h-64 overflow-y-auto">
          {options.map((o, i) => (
            <li
              key={o.id}
              id={`${id}-${o.id}`}
              role="option"
              aria-selected={i === active}
              className={cn('flex cursor-pointer items-baseline justify-between gap-3 rounded-sm px-2 py-1.5 text-sm', i === active && 'bg-accent text-accent-foreground')}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(o)}
              data-testid="picker-option"
            >
              <span className="truncate font-medium">{o.name}</span>
              {o.hint ? <span className="shrink-0 text-xs text-muted-foreground">{o.hint}</span> : null}
            </li>
          ))}
          {options.length === 0 ? (
            <li role="presentation" className="px-2 py-1.5 text-sm text-muted-foreground">
              {query.isFetching ? t('picker.loading') : t('picker.noResults')}
            </li>
          ) : null}
        </ul>
      </PopoverContent>
    </Popover>
  );
}
