import { useState } from 'react';
import { Printer } from 'lucide-react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';
import { ALL_CLASSES, printSheetsFormSchema, TEST_SHEET_KINDS, type PrintSheetsForm, type TestSheetOptions } from '@/domain/test-day/test-sheets';
import { CheckboxGroupField, RadioField, SelectField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { downloadTestSheet, useTestSheetOptions, type TestDayFamily } from '../test-sheets-api';

export interface PrintSheetsDialogProps {
  family: TestDayFamily;
  planId: string;
  /** A station's items: the roster is preselected with them. */
  items?: readonly string[];
  /** Controlled use (e.g. a page action's dialog); without it the dialog brings its own 打印 button. */
  open?: boolean;
  onOpenChange?(open: boolean): void;
}

/**
 * Prints a test day's sheets (docs/product-rules.md#physique-year, "Test sheets"): test cards or a station's roster,
 * for a class or all, downloaded as PDF. Its button shows with the test-day page's `print` permission, as the server
 * asks.
 */
export function PrintSheetsDialog({ family, planId, items, open: controlled, onOpenChange }: PrintSheetsDialogProps) {
  const { t } = useTranslation(['testSheets', 'menus']);
  const access = usePageAccess(`${family}.test.testDay`);
  const [own, setOwn] = useState(false);
  const open = controlled ?? own;
  const setOpen = (next: boolean) => (onOpenChange ? onOpenChange(next) : setOwn(next));
  const options = useTestSheetOptions(family, planId, open);
  const station = ITEM_KEYS.filter((i) => items?.includes(i));
  const defaults: PrintSheetsForm = { kind: station.length ? 'roster' : 'cards', classId: ALL_CLASSES, items: station };
  if (controlled === undefined && !access.can('print')) return null;
  return (
    <>
      {controlled === undefined ? (
        <Button variant="outline" onClick={() => setOpen(true)} data-testid="print-sheets">
          <Printer aria-hidden /> {t('menus:button.print')}
        </Button>
      ) : null}
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        schema={printSheetsFormSchema}
        defaults={defaults}
        title={t('dialog.title')}
        description={options.data ? `${options.data.planName} · ${t('dialog.description')}` : t('dialog.description')}
        submit={(v) => downloadTestSheet(family, planId, v)}
        success={(name) => t('dialog.downloaded', { name })}
        submitText={t('dialog.download')}
        ready={() => !!options.data?.classes.length}
        className="sm:max-w-xl"
        data-testid="print-sheets-dialog"
      >
        {() => (
          <QueryState
            query={options}
            data={options.data}
            isEmpty={(d) => d.classes.length === 0}
            empty={<p className="text-sm text-muted-foreground">{t('dialog.noClasses')}</p>}
            loading={<Skeleton className="h-40 w-full" data-testid="query-loading" />}
          >
            {(data) => <Fields classes={data.classes} items={data.items} />}
          </QueryState>
        )}
      </FormDialog>
    </>
  );
}

function Fields({ classes, items }: { classes: TestSheetOptions['classes']; items: ItemKey[] }) {
  // The items' names are the physique namespace's: loaded with this one.
  const { t } = useTranslation(['testSheets', 'physique']);
  const kind = useWatch<PrintSheetsForm, 'kind'>({ name: 'kind' });
  return (
    <div className="grid gap-4">
      <RadioField
        name="kind"
        label={t('dialog.kind')}
        required
        options={TEST_SHEET_KINDS.map((k) => ({ value: k, label: t(`dialog.kinds.${k}`) }))}
      />
      <SelectField
        name="classId"
        label={t('dialog.class')}
        required
        options={[
          { value: ALL_CLASSES, label: t('dialog.allClasses', { count: classes.length }) },
          ...classes.map((c) => ({ value: c.id, label: t('dialog.classOption', { name: c.name, count: c.students }) })),
        ]}
      />
      {kind === 'roster' ? (
        <CheckboxGroupField name="items" label={t('dialog.items')} required options={items.map((i) => ({ value: i, label: t(`physique:item.${i}`) }))} />
      ) : null}
    </div>
  );
}
