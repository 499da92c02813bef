import { createContext, useCallback, useContext, useEffect, useId, useState, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { useFormContext, type ControllerRenderProps, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { maxLengthOf } from '@/domain/list-query';
import type { FilePurpose } from '@/domain/uploads/rules';
import { Checkbox } from '@/components/ui/checkbox';
import { DatePicker } from '@/components/ui/date-picker';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioChoice, RadioGroup } from '@/components/ui/radio-group';
import { Select, type SelectOption } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { Upload } from '@/components/upload/upload';
import { TreeSelect, type TreeNode } from '@/components/tree/tree-select';
import { PermissionTree } from '@/components/tree/permission-tree';
import { cn } from '@/lib/cn';
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from './form';

/**
 * Field components of the form kit: one line per field instead of the FormField/FormItem/FormLabel/FormControl/
 * FormMessage block. Each reads the form from react-hook-form's context and the zod schema from `FormSchema`
 * (FormScreen provides it), so a text field's maxLength is the schema's `.max()`. Messages are i18n keys, translated.
 */

const SchemaContext = createContext<z.ZodObject | null>(null);

/** Provides the form's zod object schema to the fields below (FormScreen does this). */
export const FormSchema = SchemaContext.Provider;

const UploadsContext = createContext<((field: string, pending: number) => void) | null>(null);

/**
 * The files a form's upload fields still have on the way. Each UploadField reports its count; the form's save waits
 * (shows busy) while any is left, so a save never sends a field empty because its file has not arrived yet. The form
 * kit (FormScreen, FormDialog) wraps its fields in `FormUploads` with this hook's `report`.
 */
export function useFormUploads(): { uploading: boolean; report(field: string, pending: number): void } {
  const [pending, setPending] = useState<Record<string, number>>({});
  const report = useCallback((field: string, count: number) => setPending((was) => (was[field] === count ? was : { ...was, [field]: count })), []);
  return { uploading: Object.values(pending).some((n) => n > 0), report };
}

export const FormUploads = UploadsContext.Provider;

/** The schema of a (possibly nested: 'autumn.startDate') field, for its limits. */
function useFieldMaxLength(name: string): number | undefined {
  const schema = useContext(SchemaContext);
  if (!schema) return undefined;
  const parts = name.split('.');
  let current: z.ZodObject | undefined = schema;
  for (const part of parts.slice(0, -1)) {
    const next = current?.shape[part] as unknown;
    current = next && typeof next === 'object' && 'shape' in next ? (next as z.ZodObject) : undefined;
  }
  return current ? maxLengthOf(current, parts.at(-1)!) : undefined;
}

export interface FieldProps {
  /** Field path in the form values ('name', 'autumn.startDate'). */
  name: string;
  label: ReactNode;
  /** Red asterisk and aria-required (the schema decides the rule). */
  required?: boolean;
  description?: ReactNode;
  className?: string;
  disabled?: boolean;
  /** data-testid of the field's frame (label, control, message). */
  testId?: string;
}

/** Choice fields can act on a choice besides storing it (e.g. a new school year empties the semester). */
export interface ChoiceProps {
  onValueChange?(value: string): void;
}

/** The shared frame of a field: label, control, description, translated error. */
function Field({
  name,
  label,
  required,
  description,
  className,
  testId,
  children,
}: FieldProps & { children(field: ControllerRenderProps<FieldValues, string>): ReactNode }) {
  const { control } = useFormContext();
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className} data-field={name} data-testid={testId}>
          <FormLabel required={required}>{label}</FormLabel>
          {children(field)}
          {description ? <FormDescription>{description}</FormDescription> : null}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

export function TextField({
  type = 'text',
  placeholder,
  maxLength,
  inputMode,
  inputTestId,
  ...props
}: FieldProps & { type?: 'text' | 'number' | 'password' | 'tel'; placeholder?: string; maxLength?: number; inputMode?: 'numeric' | 'decimal' | 'text'; inputTestId?: string }) {
  const schemaMax = useFieldMaxLength(props.name);
  return (
    <Field {...props}>
      {(field) => (
        <FormControl>
          <Input
            {...field}
            value={(field.value as string | number | null | undefined) ?? ''}
            type={type}
            inputMode={inputMode}
            placeholder={placeholder}
            maxLength={maxLength ?? schemaMax}
            disabled={props.disabled}
            aria-required={props.required || undefined}
            data-testid={inputTestId}
          />
        </FormControl>
      )}
    </Field>
  );
}

/** Longer free text (a few lines); maxLength comes from the schema like TextField's. */
export function TextareaField({ placeholder, rows = 3, inputTestId, ...props }: FieldProps & { placeholder?: string; rows?: number; inputTestId?: string }) {
  const schemaMax = useFieldMaxLength(props.name);
  return (
    <Field {...props}>
      {(field) => (
        <FormControl>
          <Textarea
            {...field}
            value={(field.value as string | null | undefined) ?? ''}
            rows={rows}
            placeholder={placeholder}
            maxLength={schemaMax}
            disabled={props.disabled}
            aria-required={props.required || undefined}
            data-testid={inputTestId}
          />
        </FormControl>
      )}
    </Field>
  );
}

/**
 * A dropdown. An optional one (not `required`, or `clearable`) with a value gets a clear button after it, so the choice can go back to
 * none (Radix Select itself cannot); it is a real button in the tab order, labelled "Clear <label>".
 */
export function SelectField({
  options,
  placeholder,
  onValueChange,
  clearable: canClear,
  ...props
}: FieldProps & ChoiceProps & { options: SelectOption[]; placeholder?: string; /** Defaults to "not required". */ clearable?: boolean }) {
  const { t } = useTranslation('components');
  const label = typeof props.label === 'string' ? props.label : '';
  return (
    <Field {...props}>
      {(field) => {
        const value = (field.value as string | null | undefined) ?? '';
        const clearable = (canClear ?? !props.required) && !props.disabled && value !== '';
        return (
          <div className="relative">
            <FormControl>
              <Select
                ref={field.ref}
                name={field.name}
                value={value}
                onValueChange={(v) => {
                  field.onChange(v);
                  onValueChange?.(v);
                }}
                onBlur={field.onBlur}
                options={options}
                placeholder={placeholder}
                disabled={props.disabled}
                required={props.required}
                className={clearable ? 'pr-14' : undefined}
              />
            </FormControl>
            {clearable ? (
              <button
                type="button"
                aria-label={t('form.clear', { field: label })}
                title={t('form.clear', { field: label })}
                data-slot="select-clear"
                className="absolute top-1/2 right-8 flex size-5 -translate-y-1/2 items-center justify-center rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                onClick={() => {
                  field.onChange('');
                  onValueChange?.('');
                  field.onBlur();
                }}
              >
                <X aria-hidden className="size-3.5" />
              </button>
            ) : null}
          </div>
        );
      }}
    </Field>
  );
}

export function DateField({ min, max, ...props }: FieldProps & { min?: string; max?: string }) {
  return (
    <Field {...props}>
      {(field) => (
        <FormControl>
          <DatePicker
            value={(field.value as string | null | undefined) ?? undefined}
            onChange={(v) => field.onChange(v ?? '')}
            onBlur={field.onBlur}
            min={min}
            max={max}
            disabled={props.disabled}
            dropdowns={false}
          />
        </FormControl>
      )}
    </Field>
  );
}

export function RadioField({ options, onValueChange, ...props }: FieldProps & ChoiceProps & { options: SelectOption[] }) {
  const id = useId();
  return (
    <Field {...props}>
      {(field) => (
        <FormControl>
          <RadioGroup
            className="flex flex-wrap gap-4"
            value={String(field.value ?? '')}
            onValueChange={(v) => {
              field.onChange(v);
              onValueChange?.(v);
            }}
            disabled={props.disabled}
          >
            {options.map((o) => (
              <RadioChoice key={o.value} id={`${id}-${o.value}`} value={o.value} disabled={o.disabled}>
                {o.label}
              </RadioChoice>
            ))}
          </RadioGroup>
        </FormControl>
      )}
    </Field>
  );
}

export function CheckboxGroupField({ options, ...props }: FieldProps & { options: SelectOption[] }) {
  const id = useId();
  return (
    <Field {...props}>
      {(field) => {
        const value = new Set((field.value as string[] | undefined) ?? []);
        return (
          <FormControl>
            <div role="group" className="flex flex-wrap gap-4">
              {options.map((o) => (
                <div key={o.value} className="flex items-center gap-2">
                  <Checkbox
                    id={`${id}-${o.value}`}
                    checked={value.has(o.value)}
                    disabled={props.disabled || o.disabled}
                    onCheckedChange={(checked) => {
                      const next = new Set(value);
                      if (checked === true) next.add(o.value);
                      else next.delete(o.value);
                      field.onChange(options.map((x) => x.value).filter((v) => next.has(v)));
                    }}
                  />
                  <Label htmlFor={`${id}-${o.value}`} className="font-normal">
                    {o.label}
                  </Label>
                </div>
              ))}
            </div>
          </FormControl>
        );
      }}
    </Field>
  );
}

export function TreeSelectField({ tree, placeholder, ...props }: FieldProps & { tree: readonly TreeNode[]; placeholder?: string }) {
  return (
    <Field {...props}>
      {(field) => (
        <FormControl>
          <TreeSelect
            tree={tree}
            value={(field.value as string | null | undefined) ?? undefined}
            onChange={(v) => field.onChange(v ?? '')}
            placeholder={placeholder}
            disabled={props.disabled}
          />
        </FormControl>
      )}
    </Field>
  );
}

/** A role's permissions (src/components/tree/permission-tree.tsx): the field holds the checked node ids. */
export function PermissionTreeField({ tree, disabledIds, ...props }: FieldProps & { tree: readonly TreeNode[]; disabledIds?: ReadonlySet<string> }) {
  return (
    <Field {...props}>
      {(field) => (
        <FormControl>
          <PermissionTree
            tree={tree}
            value={new Set((field.value as string[] | undefined) ?? [])}
            onChange={(next) => field.onChange([...next])}
            disabled={disabledIds}
            aria-label={typeof props.label === 'string' ? props.label : undefined}
          />
        </FormControl>
      )}
    </Field>
  );
}

/**
 * A file-store upload (src/components/upload): the field holds a file id, or ids when `maxCount` > 1 or its value is a list. `hint` replaces
 * the purpose's rule line. Files still uploading are reported to the form, whose save waits for them (`useFormUploads`).
 */
export function UploadField({ purpose, maxCount, hint, ...props }: FieldProps & { purpose: FilePurpose; maxCount?: number; hint?: ReactNode }) {
  const report = useContext(UploadsContext);
  const key = useId();
  const onPendingChange = useCallback((count: number) => report?.(key, count), [report, key]);
  useEffect(() => () => report?.(key, 0), [report, key]);
  return (
    <Field {...props}>
      {(field) => (
        <Upload
          purpose={purpose}
          value={field.value as string | string[] | null | undefined}
          maxCount={maxCount}
          disabled={props.disabled}
          hint={hint}
          aria-label={typeof props.label === 'string' ? props.label : undefined}
          onPendingChange={onPendingChange}
          // A field whose value is a list stays a list, even when there is room for one file only.
          onChange={(next) =>
            field.onChange(Array.isArray(field.value) ? (next == null ? [] : Array.isArray(next) ? next : [next]) : (next ?? (maxCount && maxCount > 1 ? [] : null)))
          }
        />
      )}
    </Field>
  );
}

/**
 * A field whose control the caller draws (e.g. a rich-text editor) in the shared frame: label, description,
 * translated message. Wrap the control in `FormControl` so it gets the field's id and aria attributes.
 */
export function CustomField({ render, ...props }: FieldProps & { render(field: ControllerRenderProps<FieldValues, string>): ReactNode }) {
  return <Field {...props}>{render}</Field>;
}

/** A titled group of fields in a grid (two columns from md up). */
export function FieldGroup({ title, children, className }: { title?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <fieldset className={cn('grid gap-4 md:grid-cols-2', className)}>
      {title ? <legend className="mb-2 text-sm font-medium text-foreground">{title}</legend> : null}
      {children}
    </fieldset>
  );
}
