import type { FocusEventHandler, ReactNode, Ref } from 'react';
import { Check, ChevronDown, ChevronUp } from 'lucide-react';
import { Select as SelectPrimitive } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';

export interface SelectOption {
  value: string;
  label: ReactNode;
  disabled?: boolean;
}

export interface SelectProps {
  value?: string;
  onValueChange?(v: string): void;
  options: SelectOption[];
  /** Shown while nothing is chosen; defaults to the translated "Please select". */
  placeholder?: string;
  disabled?: boolean;
  className?: string;
  'aria-label'?: string;
  id?: string;
  // Extras so the control works inside FormControl (which passes id and aria-* to its child).
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  name?: string;
  required?: boolean;
  onBlur?: FocusEventHandler<HTMLButtonElement>;
  onOpenChange?(open: boolean): void;
  ref?: Ref<HTMLButtonElement>;
  /** Extra classes for the dropdown list. */
  contentClassName?: string;
}

/** A single-choice dropdown over Radix Select. An empty string value shows the placeholder. */
export function Select({
  value,
  onValueChange,
  options,
  placeholder,
  disabled,
  className,
  id,
  name,
  required,
  onBlur,
  onOpenChange,
  ref,
  contentClassName,
  ...aria
}: SelectProps) {
  const { t } = useTranslation('ui');
  return (
    <SelectPrimitive.Root
      // Radix forbids '' as an item value and uses it to mean "no selection".
      value={value ?? ''}
      onValueChange={onValueChange}
      disabled={disabled}
      name={name}
      required={required}
      onOpenChange={onOpenChange}
    >
      <SelectPrimitive.Trigger
        ref={ref}
        id={id}
        data-slot="select-trigger"
        onBlur={onBlur}
        aria-label={aria['aria-label']}
        aria-invalid={aria['aria-invalid']}
        aria-describedby={aria['aria-describedby']}
        className={cn(
          'flex h-9 w-full min-w-0 items-center justify-between max-md:min-h-11 gap-2 rounded-md border border-input bg-transparent px-3 py-2 text-sm whitespace-nowrap text-foreground shadow-xs transition-[color,box-shadow,border-color] outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 data-[placeholder]:text-muted-foreground dark:bg-input/20 [&_svg]:pointer-events-none [&_svg]:shrink-0 *:data-[slot=select-value]:line-clamp-1 *:data-[slot=select-value]:text-left',
          className,
        )}
      >
        <SelectPrimitive.Value data-slot="select-value" placeholder={placeholder ?? t('select.placeholder')} />
        <SelectPrimitive.Icon asChild>
          <ChevronDown aria-hidden className="size-4 opacity-60" />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          data-slot="select-content"
          position="popper"
          sideOffset={4}
          className={cn(
            'relative z-50 max-h-(--radix-select-content-available-height) min-w-(--radix-select-trigger-width) overflow-x-hidden overflow-y-auto rounded-md border bg-popover text-popover-foreground shadow-md data-[state=closed]:animate-fade-out data-[state=open]:animate-scale-in',
            contentClassName,
          )}
        >
          <SelectPrimitive.ScrollUpButton className="flex cursor-default items-center justify-center py-1">
            <ChevronUp aria-hidden className="size-4" />
          </SelectPrimitive.ScrollUpButton>
          <SelectPrimitive.Viewport className="p-1">
            {options.length === 0 ? (
              <div data-slot="select-empty" className="px-2 py-1.5 text-sm text-muted-foreground">
                {t('select.empty')}
              </div>
            ) : (
              options.map((o) => (
                <SelectPrimitive.Item
                  key={o.value}
                  value={o.value}
                  disabled={o.disabled}
                  data-slot="select-item"
                  className="relative flex w-full cursor-default items-center gap-2 rounded-sm py-1.5 pr-8 pl-2 text-sm outline-hidden select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50"
                >
                  <span className="absolute right-2 flex size-3.5 items-center justify-center">
                    <SelectPrimitive.ItemIndicator>
                      <Check aria-hidden className="size-4" />
                    </SelectPrimitive.ItemIndicator>
                  </span>
                  <SelectPrimitive.ItemText>{o.label}</SelectPrimitive.ItemText>
                </SelectPrimitive.Item>
              ))
            )}
          </SelectPrimitive.Viewport>
          <SelectPrimitive.ScrollDownButton className="flex cursor-default items-center justify-center py-1">
            <ChevronDown aria-hidden className="size-4" />
          </SelectPrimitive.ScrollDownButton>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}
