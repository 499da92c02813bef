import { useMemo, useState, type ReactNode } from 'react';
import { Plus, Trash2, Upload } from 'lucide-react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  CONVERSION_BASES,
  CONVERSION_STAGE_TABLE,
  basisLabelKey,
  conversionListQuery,
  conversionSaveSchema,
  type ConversionForm,
  type ConversionHead,
  type ConversionRow,
} from '@/domain/conversion/conversion';
import type { ServedBy } from '@/domain/menus/access';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { SelectField, TextareaField, TextField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { ImportDialog } from '@/components/import-dialog/import-dialog';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import type { ActionDialogProps, PageActions } from '@/components/list/page-actions';
import { deleteAction, type RowAction } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { useDateTime } from '@/lib/date-time';
import { conversionTables, importConversion } from '../api';

type Family = ServedBy<'test.conversion'>;
type Filters = { name?: string; stage?: string };
const col = createDataTableColumnHelper<ConversionRow>();

/** The sample mark (the demo's table): never mistaken for an official table. */
export function SampleBadge() {
  const { t } = useTranslation('conversion');
  return (
    <Badge variant="warning" className="whitespace-nowrap" data-testid="conversion-sample">
      {t('sample')}
    </Badge>
  );
}

/**
 * A district's 中考体育 conversion table versions (docs/product-rules.md#physique-year: 中考体育 conversion): the list,
 * add (a new version) and edit in a dialog with the steps, import of a file as a new version, delete of an unused one.
 */
export function ConversionListScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['conversion', 'physique', 'school']);
  const key = `${family}.test.conversion`;
  const api = conversionTables(family);
  const state = useListState<Filters>(['name', 'stage']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const stageOptions = enumOptions(CONVERSION_STAGE_TABLE, t);
  const when = useDateTime();

  const actions: PageActions<ConversionRow> = {
    add: { button: 'add', where: 'toolbar', variant: 'default', icon: <Plus aria-hidden />, dialog: (p) => <ConversionDialog family={family} {...p} /> },
    import: { button: 'import', where: 'toolbar', icon: <Upload aria-hidden />, dialog: ({ open, onOpenChange, done }) => <ConversionImportDialog family={family} open={open} onOpenChange={onOpenChange} done={done} /> },
    edit: {
      button: 'edit',
      disabled: (r) => r.plans > 0,
      disabledHint: () => t('frozen'),
      dialog: (p) => <ConversionDialog family={family} {...p} />,
    },
  };
  const rowButtons = useMemo<(RowAction<ConversionRow> | string)[]>(
    () => [
      'edit',
      {
        ...deleteAction<ConversionRow>((r) => ({ title: t('deleteTitle', { name: r.name, version: r.tableVersion }) }), (r) => remove.mutateAsync(r.id)),
        // A version a plan applies stays (the server refuses it too: 409).
        disabled: (r) => r.plans > 0,
        disabledHint: () => t('frozen'),
      },
    ],
    [t, remove],
  );
  const filters: FilterDef<Filters>[] = [
    { name: 'name', type: 'text', label: t('field.name') },
    { name: 'stage', type: 'select', label: t('field.stage'), options: stageOptions },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('field.name'),
          cell: ({ row }) => (
            <span className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{row.original.name}</span>
              {row.original.sample ? <SampleBadge /> : null}
            </span>
          ),
        }),
        col.accessor('stage', { header: t('field.stage'), cell: ({ getValue }) => enumLabel(CONVERSION_STAGE_TABLE, getValue(), t) }),
        col.accessor('year', { header: t('field.year') }),
        col.accessor('tableVersion', { header: t('field.tableVersion'), cell: ({ getValue }) => t('versionLabel', { version: getValue() }) }),
        col.accessor('basis', { header: t('field.basis'), cell: ({ getValue }) => t(basisLabelKey(getValue())), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('maxPoints', { header: t('field.maxPoints'), meta: { align: 'right' } }),
        col.accessor((r) => r.rows.length, { id: 'steps', header: t('field.steps'), meta: { align: 'right' } }),
        col.accessor('plans', { header: t('field.plans'), meta: { align: 'right' } }),
        col.accessor('updatedAt', { header: t('field.updatedAt'), cell: ({ getValue }) => when(getValue()), meta: { className: 'whitespace-nowrap' } }),
      ]),
    [t, when],
  );
  return (
    <ListScreen
      pageKey={key}
      description={t('description')}
      state={state}
      querySchema={conversionListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      actions={actions}
      rowButtons={rowButtons}
      data-testid="conversion-list"
    />
  );
}

const formOf = (r?: ConversionRow): ConversionForm =>
  r
    ? { name: r.name, stage: r.stage, year: String(r.year), basis: r.basis, maxPoints: String(r.maxPoints), note: r.note ?? '', rows: r.rows.map((s) => ({ min: String(s.min), points: String(s.points) })), version: r.version }
    : { name: '', stage: 'junior', year: String(new Date().getFullYear() + 1), basis: 'total', maxPoints: '', note: '', rows: [{ min: '', points: '' }] };

/** Add (a new version of its stage and year) or edit (an unused version) with its steps. */
function ConversionDialog({ family, rows, open, onOpenChange, done }: { family: Family } & ActionDialogProps<ConversionRow>) {
  const { t } = useTranslation(['conversion', 'physique', 'school']);
  const [row] = rows;
  const save = conversionTables(family).useSave(row?.id);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={conversionSaveSchema}
      defaults={formOf(row)}
      title={t(row ? 'editTitle' : 'addTitle')}
      description={row ? t('fixedOnEdit') : undefined}
      className="sm:max-w-2xl"
      submit={(body) => save.mutateAsync(body)}
      onDone={done}
      data-testid="conversion-form"
    >
      {(form) => <ConversionFields form={form} editing={!!row} />}
    </FormDialog>
  );
}

function ConversionFields({ form, editing }: { form: UseFormReturn<ConversionForm, unknown, z.output<typeof conversionSaveSchema>>; editing: boolean }) {
  const { t } = useTranslation(['conversion', 'physique', 'school']);
  const steps = useFieldArray({ control: form.control, name: 'rows' });
  const basisOptions = CONVERSION_BASES.map((b) => ({ value: b, label: t(basisLabelKey(b)) }));
  return (
    <div className="flex max-h-[65vh] flex-col gap-4 overflow-y-auto pr-1">
      <div className="grid gap-4 sm:grid-cols-4">
        <TextField name="name" label={t('field.name')} required className="sm:col-span-4" />
        <SelectField name="stage" label={t('field.stage')} required options={enumOptions(CONVERSION_STAGE_TABLE, t)} disabled={editing} />
        <TextField name="year" label={t('field.year')} required inputMode="numeric" disabled={editing} />
        <SelectField name="basis" label={t('field.basis')} required options={basisOptions} />
        <TextField name="maxPoints" label={t('field.maxPoints')} required inputMode="decimal" />
        <TextareaField name="note" label={t('field.note')} rows={2} className="sm:col-span-4" />
      </div>
      <fieldset className="flex flex-col gap-2" data-testid="conversion-steps">
        <legend className="text-sm font-medium">{t('field.rows')}</legend>
        <p className="text-xs text-muted-foreground">{t('rowsHint')}</p>
        <div className="grid grid-cols-[4rem_1fr_1fr_2.5rem] items-center gap-2 text-xs text-muted-foreground" aria-hidden>
          <span />
          <span>{t('field.min')}</span>
          <span>{t('field.points')}</span>
          <span />
        </div>
        {steps.fields.map((f, i) => (
          <div key={f.id} className="grid grid-cols-[4rem_1fr_1fr_2.5rem] items-start gap-2" data-testid="conversion-step">
            <span className="pt-2 text-sm text-muted-foreground">{t('rowLabel', { row: i + 1 })}</span>
            <TextField name={`rows.${i}.min`} label={<span className="sr-only">{`${t('rowLabel', { row: i + 1 })} ${t('field.min')}`}</span>} inputMode="decimal" />
            <TextField name={`rows.${i}.points`} label={<span className="sr-only">{`${t('rowLabel', { row: i + 1 })} ${t('field.points')}`}</span>} inputMode="decimal" />
            <Button type="button" variant="ghost" size="icon" aria-label={t('removeRow', { row: i + 1 })} disabled={steps.fields.length === 1} onClick={() => steps.remove(i)}>
              <Trash2 aria-hidden />
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => steps.append({ min: '', points: '' })} data-testid="conversion-add-step">
            <Plus aria-hidden />
            {t('addRow')}
          </Button>
        </div>
      </fieldset>
    </div>
  );
}

type Head = Record<keyof ConversionHead, string>;

/** Upload of a table's steps as a new version: the head is chosen here, the file holds the steps (the import kit). */
function ConversionImportDialog({ family, open, onOpenChange, done }: { family: Family; open: boolean; onOpenChange(open: boolean): void; done(): void }) {
  const { t } = useTranslation(['conversion', 'physique', 'school']);
  const api = conversionTables(family);
  const [head, setHead] = useState<Head>({ name: '', stage: 'junior', year: String(new Date().getFullYear() + 1), basis: 'total', maxPoints: '', note: '' });
  const set = (k: keyof Head) => (v: string) => setHead((h) => ({ ...h, [k]: v }));
  const ready = head.name.trim() !== '' && head.year.trim() !== '' && head.maxPoints.trim() !== '';
  const field = (k: keyof Head, label: string, control: ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`conversion-import-${k}`}>{label}</Label>
      {control}
    </div>
  );
  return (
    <ImportDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('import.title')}
      description={t('import.description')}
      onDownloadTemplate={() => void api.downloadTemplate()}
      upload={(file, onProgress) => importConversion(family, head, file, onProgress)}
      canUpload={ready}
      blockedReason={t('import.fillHead')}
      onImported={done}
      extra={
        <div className="grid gap-3 sm:grid-cols-2" data-testid="conversion-import-head">
          <div className="sm:col-span-2">
            {field('name', t('field.name'), <Input id="conversion-import-name" value={head.name} maxLength={40} onChange={(e) => set('name')(e.target.value)} />)}
          </div>
          {field('stage', t('field.stage'), <Select id="conversion-import-stage" value={head.stage} onValueChange={set('stage')} options={enumOptions(CONVERSION_STAGE_TABLE, t)} />)}
          {field('year', t('field.year'), <Input id="conversion-import-year" inputMode="numeric" value={head.year} onChange={(e) => set('year')(e.target.value)} />)}
          {field('basis', t('field.basis'), <Select id="conversion-import-basis" value={head.basis} onValueChange={set('basis')} options={CONVERSION_BASES.map((b) => ({ value: b, label: t(basisLabelKey(b)) }))} />)}
          {field('maxPoints', t('field.maxPoints'), <Input id="conversion-import-maxPoints" inputMode="decimal" value={head.maxPoints} onChange={(e) => set('maxPoints')(e.target.value)} />)}
        </div>
      }
    />
  );
}
