import { useId, useState } from 'react';
import { format, isValid, parse } from 'date-fns';
import { Calendar as CalendarIcon, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { Calendar } from '@/components/ui/calendar';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';

const ISO_DAY = 'yyyy-MM-dd';

/** 'YYYY-MM-DD' → a local Date, or undefined when empty or malformed. */
export function parseDay(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const d = parse(value, ISO_DAY, new Date());
  return isValid(d) ? d : undefined;
}

/** A local Date → 'YYYY-MM-DD' (no time-zone shift, unlike toISOString). */
export function formatDay(date: Date): string {
  return format(date, ISO_DAY);
}

export interface DatePickerProps {
  /** 'YYYY-MM-DD' */
  value?: string;
  onChange(v: string | undefined): void;
  /** Defaults to the translated "Pick a date". */
  placeholder?: string;
  disabled?: boolean;
  // Extras: form wiring and limits.
  id?: string;
  className?: string;
  'aria-label'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  onBlur?(): void;
  /** Earliest / latest selectable day, 'YYYY-MM-DD'. */
  min?: string;
  max?: string;
  /** Show a clear button when a value is set (default true). */
  clearable?: boolean;
  /** Year and month dropdowns in the caption, for dates far away such as birthdays (default true). */
  dropdowns?: boolean;
}

/** A date field: a button showing the day, opening a calendar in a popover. Value is 'YYYY-MM-DD'. */
export function DatePicker({
  value,
  onChange,
  placeholder,
  disabled,
  id,
  className,
  onBlur,
  min,
  max,
  clearable = true,
  dropdowns = true,
  ...aria
}: DatePickerProps) {
  const { t } = useTranslation('ui');
  const [open, setOpen] = useState(false);
  const nameId = useId();
  const selected = parseDay(value);
  const minDay = parseDay(min);
  const maxDay = parseDay(max);
  const now = new Date();

  return (
    <div data-slot="date-picker" className={cn('relative w-full', className)}>
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) onBlur?.();
        }}
      >
        <PopoverTrigger asChild disabled={disabled}>
          <button
            type="button"
            id={id}
            data-slot="date-picker-trigger"
            data-empty={!selected || undefined}
            aria-labelledby={aria['aria-label'] ? `${nameId}-label ${nameId}-text` : undefined}
            aria-invalid={aria['aria-invalid']}
            aria-describedby={aria['aria-describedby']}
            className={cn(
              'flex h-9 w-full min-w-0 items-center gap-2 max-md:min-h-11 rounded-md border border-input bg-transparent px-3 py-2 text-left text-sm text-foreground tabular-nums shadow-xs transition-[color,box-shadow,border-color] outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 data-[empty]:text-muted-foreground dark:bg-input/20',
              clearable && selected && 'pr-9',
            )}
          >
            <CalendarIcon aria-hidden className="size-4 shrink-0 opacity-60" />
            {/* A given label joins the visible day in the name (an aria-label would hide it: WCAG 2.5.3). */}
            {aria['aria-label'] ? (
              <span id={`${nameId}-label`} className="sr-only">
                {aria['aria-label']}
              </span>
            ) : null}
            <span id={`${nameId}-text`} className="truncate">
              {selected ? formatDay(selected) : (placeholder ?? t('datePicker.placeholder'))}
            </span>
          </button>
        </PopoverTrigger>
        <PopoverContent className="w-auto p-0" align="start">
          <Calendar
            mode="single"
            // Clicking the chosen day again keeps it; the clear button empties the field.
            required
            selected={selected}
            defaultMonth={selected ?? maxDay ?? now}
            captionLayout={dropdowns ? 'dropdown' : 'label'}
            startMonth={minDay ?? new Date(now.getFullYear() - 80, 0)}
            endMonth={maxDay ?? new Date(now.getFullYear() + 10, 11)}
            disabled={[...(minDay ? [{ before: minDay }] : []), ...(maxDay ? [{ after: maxDay }] : [])]}
            onSelect={(d) => {
              onChange(formatDay(d));
              setOpen(false);
            }}
            autoFocus
          />
        </PopoverContent>
      </Popover>
      {clearable && selected && !disabled && (
        <button
          type="button"
          data-slot="date-picker-clear"
          aria-label={t('clear')}
          onClick={() => onChange(undefined)}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded-sm p-0.5 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <X aria-hidden className="size-4" />
        </button>
      )}
    </div>
  );
}
