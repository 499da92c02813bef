import type { ReactNode } from 'react';
import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, type SelectOption } from '@/components/ui/select';
import { cn } from '@/lib/cn';

export interface SearchFormProps {
  /** Search pressed (or Enter in a field): apply the drafted filters. */
  onSearch(): void;
  /** Reset pressed: clear the filters. Without it there is no Reset button. */
  onReset?(): void;
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
  /** Test id of the Search button. */
  searchTestId?: string;
}

/**
 * The filter row above a list: fields that wrap, then Search and Reset. Filters are drafted in the fields and applied
 * only on Search, so a half-typed keyword does not refetch the list on every key.
 */
export function SearchForm({ onSearch, onReset, children, className, 'data-testid': testId, searchTestId }: SearchFormProps) {
  const { t } = useTranslation('components');
  return (
    <form
      className={cn('flex flex-wrap items-end gap-3', className)}
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      {children}
      <div className="flex gap-2">
        <Button type="submit" data-testid={searchTestId}>
          <Search aria-hidden />
          {t('searchForm.search')}
        </Button>
        {onReset ? (
          <Button type="button" variant="outline" onClick={onReset}>
            {t('searchForm.reset')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** One labelled field of a SearchForm. Give the control an `id` and pass it as `htmlFor`. */
export function SearchField({ label, htmlFor, children, className }: { label: ReactNode; htmlFor?: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
    </div>
  );
}

// Radix Select cannot hold an empty value, so "all" is this sentinel inside the control and `undefined` outside it.
const ANY = '__all';

export interface FilterSelectProps {
  label: string;
  /** The chosen value, or undefined for "all". */
  value: string | undefined;
  onChange(value: string | undefined): void;
  /** The choices after "all". */
  options: SelectOption[];
  className?: string;
  'data-testid'?: string;
}

/** A labelled select of a SearchForm whose first choice is "all" (no filter). */
export function FilterSelect({ label, value, onChange, options, className, 'data-testid': testId }: FilterSelectProps) {
  const { t } = useTranslation('components');
  return (
    <div className="grid gap-1.5" data-testid={testId}>
      <Label>{label}</Label>
      <Select
        className={className}
        aria-label={label}
        value={value ?? ANY}
        onValueChange={(v) => onChange(v === ANY ? undefined : v)}
        options={[{ value: ANY, label: t('searchForm.all') }, ...options]}
      />
    </div>
  );
}

export interface FilterTextProps {
  id: string;
  label: string;
  /** The typed text; undefined shows an empty field. */
  value: string | undefined;
  onChange(value: string): void;
  placeholder?: string;
  className?: string;
  'data-testid'?: string;
  /** Longest text the list query accepts: `maxLengthOf(listQuerySchema, name)` (src/domain/list-query.ts). */
  maxLength?: number;
  /** The server refused this filter: its message, shown under the field. */
  error?: string;
}

/** A labelled text field of a SearchForm (a name or keyword); Enter in it searches. */
export function FilterText({ id, label, value, onChange, placeholder, className = 'w-48', 'data-testid': testId, maxLength, error }: FilterTextProps) {
  return (
    <SearchField label={label} htmlFor={id}>
      <Input
        id={id}
        className={className}
        data-testid={testId}
        value={value ?? ''}
        placeholder={placeholder}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="max-w-64 text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </SearchField>
  );
}
