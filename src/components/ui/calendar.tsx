import { useEffect, useRef, type ComponentProps } from 'react';
import { ChevronDown, ChevronLeft, ChevronRight } from 'lucide-react';
import { DayPicker, getDefaultClassNames, type ChevronProps, type DayButtonProps, type RootProps } from 'react-day-picker';
import { enUS } from 'react-day-picker/locale/en-US';
import { zhCN } from 'react-day-picker/locale/zh-CN';
import { zhTW } from 'react-day-picker/locale/zh-TW';
import { useTranslation } from 'react-i18next';
import { toLocale } from '@/domain/i18n/language';
import type { Locale } from '@/domain/constants';
import { cn } from '@/lib/cn';
import { buttonVariants } from '@/components/ui/button';

/** react-day-picker locales (date-fns locales with translated DayPicker labels) per app locale. */
export const dayPickerLocales = { zh_cn: zhCN, zh_tw: zhTW, en_us: enUS } satisfies Record<Locale, unknown>;

export type CalendarProps = ComponentProps<typeof DayPicker>;

/** A month grid (react-day-picker) in the app's look; its language follows i18next. */
export function Calendar({ className, classNames, showOutsideDays = true, captionLayout = 'label', components, ...props }: CalendarProps) {
  const { i18n } = useTranslation();
  const d = getDefaultClassNames();
  return (
    <DayPicker
      showOutsideDays={showOutsideDays}
      captionLayout={captionLayout}
      locale={dayPickerLocales[toLocale(i18n.language)]}
      className={cn('group/calendar bg-popover p-3 [--cell-size:--spacing(8)]', className)}
      classNames={{
        root: cn('w-fit', d.root),
        months: cn('relative flex flex-col gap-4 md:flex-row', d.months),
        month: cn('flex w-full flex-col gap-4', d.month),
        nav: cn('absolute inset-x-0 top-0 flex w-full items-center justify-between gap-1', d.nav),
        button_previous: cn(buttonVariants({ variant: 'ghost' }), 'size-(--cell-size) p-0 select-none aria-disabled:opacity-50 max-md:min-h-0', d.button_previous),
        button_next: cn(buttonVariants({ variant: 'ghost' }), 'size-(--cell-size) p-0 select-none aria-disabled:opacity-50 max-md:min-h-0', d.button_next),
        month_caption: cn('flex h-(--cell-size) w-full items-center justify-center px-(--cell-size)', d.month_caption),
        dropdowns: cn('flex h-(--cell-size) w-full items-center justify-center gap-1.5 text-sm font-medium', d.dropdowns),
        dropdown_root: cn(
          'relative rounded-md border border-input shadow-xs has-focus:border-ring has-focus:ring-[3px] has-focus:ring-ring/50',
          d.dropdown_root,
        ),
        dropdown: cn('absolute inset-0 bg-popover opacity-0', d.dropdown),
        caption_label: cn(
          'font-medium select-none',
          captionLayout === 'label' ? 'text-sm' : 'flex h-8 items-center gap-1 rounded-md pr-1 pl-2 text-sm [&>svg]:size-3.5 [&>svg]:text-muted-foreground',
          d.caption_label,
        ),
        month_grid: cn('w-full border-collapse', d.month_grid),
        weekdays: cn('flex', d.weekdays),
        weekday: cn('flex-1 rounded-md text-[0.8rem] font-normal text-muted-foreground select-none', d.weekday),
        week: cn('mt-2 flex w-full', d.week),
        day: cn('group/day relative aspect-square h-full w-full p-0 text-center select-none', d.day),
        today: cn('rounded-md bg-accent text-accent-foreground', d.today),
        outside: cn('text-muted-foreground aria-selected:text-muted-foreground', d.outside),
        disabled: cn('text-muted-foreground opacity-50', d.disabled),
        hidden: cn('invisible', d.hidden),
        ...classNames,
      }}
      components={{
        Root: CalendarRoot,
        Chevron: CalendarChevron,
        DayButton: CalendarDayButton,
        ...components,
      }}
      {...props}
    />
  );
}

function CalendarRoot({ className, rootRef, ...props }: RootProps) {
  return <div data-slot="calendar" ref={rootRef} className={className} {...props} />;
}

function CalendarChevron({ className, orientation }: ChevronProps) {
  const Icon = orientation === 'left' ? ChevronLeft : orientation === 'right' ? ChevronRight : ChevronDown;
  return <Icon aria-hidden className={cn('size-4', className)} />;
}

function CalendarDayButton({ className, day, modifiers, ...props }: DayButtonProps) {
  const ref = useRef<HTMLButtonElement>(null);
  // Keyboard navigation moves the focused day; the default DayButton does the same.
  useEffect(() => {
    if (modifiers.focused) ref.current?.focus();
  }, [modifiers.focused]);
  return (
    <button
      ref={ref}
      type="button"
      data-slot="calendar-day"
      data-day={day.isoDate}
      data-selected={modifiers.selected || undefined}
      className={cn(
        'flex aspect-square size-auto w-full min-w-(--cell-size) items-center justify-center rounded-md text-sm leading-none font-normal outline-none hover:bg-accent hover:text-accent-foreground focus-visible:relative focus-visible:z-10 focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none data-[selected]:bg-primary data-[selected]:text-primary-foreground',
        className,
      )}
      {...props}
    />
  );
}
