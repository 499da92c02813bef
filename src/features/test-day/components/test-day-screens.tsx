import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Smartphone } from 'lucide-react';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FormDialog } from '@/components/form/form-dialog';
import { CheckboxGroupField, SelectField, TextareaField, TextField } from '@/components/form/fields';
import { ListScreen } from '@/components/list/list-screen';
import type { ActionDialogProps, PageActions } from '@/components/list/page-actions';
import { deleteAction, type RowAction } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { PageHeader } from '@/components/page-header/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { useDateTime } from '@/lib/date-time';
import { stationListQuery, stationSaveSchema, type StationForm, type StationRow } from '@/domain/test-day/stations';
import type { TestDayProgress } from '@/domain/test-day/entries';
import { PrintSheetsDialog } from './print-sheets-dialog';
import { stations, useProgress, useStationOptions, useTestDayPlans, type TestDayFamily } from '../api';

const col = createDataTableColumnHelper<StationRow>();

/**
 * The test-day page (physiqueManage/testDay, docs/product-rules.md#physique-year, test day): a plan's stations (list,
 * form, delete), a way into each station's screen, and the day's live progress per station and class.
 */
export function TestDayScreen({ family }: { family: TestDayFamily }) {
  const { t } = useTranslation(['testDay', 'testSheets']);
  const navigate = useNavigate();
  const key = `${family}.test.testDay`;
  const access = usePageAccess(key);
  const api = stations(family);
  const [params, setParams] = useSearchParams();
  const plans = useTestDayPlans(family);
  const planId = params.get('planId') ?? plans.data?.[0]?.id;
  const state = useListState<Record<string, string | undefined>>([]);
  const query = api.useList({ ...state.query, planId }, { enabled: Boolean(planId) });
  const remove = api.useDelete();
  const progress = useProgress(family, planId);

  const actions: PageActions<StationRow> = {
    add: { button: 'add', where: 'toolbar', testId: 'station-add', dialog: (p) => <StationDialog family={family} planId={planId!} {...p} rows={[]} /> },
    edit: { button: 'edit', dialog: (p) => <StationDialog family={family} planId={planId!} {...p} /> },
    // Test cards of the plan (or a roster of any items) from the toolbar; a station's row prints its own roster.
    print: { button: 'print', where: 'toolbar', testId: 'print-sheets', dialog: (p) => <PrintSheetsDialog family={family} planId={planId!} open={p.open} onOpenChange={p.onOpenChange} /> },
    roster: {
      button: 'print',
      label: t('testSheets:roster.title'),
      testId: 'station-roster',
      dialog: (p) => <PrintSheetsDialog family={family} planId={planId!} items={p.rows[0]?.items} open={p.open} onOpenChange={p.onOpenChange} />,
    },
  };
  const rowButtons = useMemo<(RowAction<StationRow> | string)[]>(
    () => [
      { action: 'entry', icon: <Smartphone aria-hidden />, onClick: (r) => void navigate(access.paths.route('station', r.id)) },
      'edit',
      'roster',
      deleteAction((r) => ({ title: t('station.deleteTitle', { name: r.name }) }), (r) => remove.mutateAsync(r.id)),
    ],
    [t, navigate, access.paths, remove],
  );
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('station.name'), meta: { className: 'whitespace-nowrap font-medium' } }),
        col.accessor('items', { header: t('station.items'), cell: ({ getValue }) => getValue().map((i) => t(`physique:item.${i}`)).join(t('progress.separator')) }),
        col.accessor('venueName', { header: t('station.venue'), cell: ({ getValue }) => getValue() ?? '—' }),
        col.accessor('devices', { header: t('station.devices'), cell: ({ getValue }) => getValue().map((d) => d.name).join(t('progress.separator')) || '—' }),
        col.accessor('teachers', { header: t('station.teachers'), cell: ({ getValue }) => getValue().map((d) => d.name).join(t('progress.separator')) || '—' }),
      ]),
    [t],
  );
  const planOptions = (plans.data ?? []).map((p) => ({ value: p.id, label: `${p.name}（${t(`testPlans:status.${p.status}`)}）` }));

  return (
    <div className="flex flex-col gap-4" data-testid="test-day">
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          <div className="flex items-center gap-2">
            <span className="text-muted-foreground text-sm" id="test-day-plan">
              {t('page.plan')}
            </span>
            <Select
              aria-label={t('page.plan')}
              className="w-72"
              value={planId ?? ''}
              options={planOptions}
              onValueChange={(v) => setParams((prev) => {
                const next = new URLSearchParams(prev);
                next.set('planId', v);
                next.delete('current');
                return next;
              })}
            />
          </div>
        }
      />
      {planId ? <ProgressPanel progress={progress.data} /> : <p className="text-muted-foreground">{t('page.noPlan')}</p>}
      {planId ? (
        <ListScreen
          pageKey={key}
          state={state}
          filters={[]}
          querySchema={stationListQuery}
          query={query}
          columns={columns}
          rowKey="id"
          actions={actions}
          rowButtons={rowButtons}
          section={{ title: t('station.listTitle') }}
          data-testid="station-list"
        />
      ) : null}
    </div>
  );
}


function Bar({ done, waiting, total }: { done: number; waiting: number; total: number }) {
  const pct = (n: number) => `${total === 0 ? 0 : (n / total) * 100}%`;
  return (
    <div className="bg-muted flex h-2 w-full overflow-hidden rounded-full" aria-hidden>
      <div className="bg-success h-full" style={{ width: pct(done) }} />
      <div className="bg-warning h-full" style={{ width: pct(waiting) }} />
    </div>
  );
}

/** The day's progress, refreshed on its own (useProgress polls): per station and per class, and who is missing. */
function ProgressPanel({ progress }: { progress: TestDayProgress | undefined }) {
  const { t } = useTranslation('testDay');
  const time = useDateTime('seconds');
  if (!progress) return null;
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_3fr]" data-testid="test-day-progress">
      <Card>
        <CardHeader>
          <CardTitle>{t('progress.stations')}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {progress.stations.length === 0 ? <p className="text-muted-foreground text-sm">{t('progress.noStations')}</p> : null}
          {progress.stations.map((s) => (
            <div key={s.id} className="flex flex-col gap-1">
              <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
                <span className="font-medium">{s.name}</span>
                <span className="text-muted-foreground tabular-nums">{t('progress.counts', { done: s.done, waiting: s.waiting, missing: s.missing, total: s.total })}</span>
              </div>
              <Bar {...s} />
              {s.appeals > 0 ? <span className="text-destructive text-xs">{t('progress.appeals', { count: s.appeals })}</span> : null}
            </div>
          ))}
          <p className="text-muted-foreground text-xs">{t('progress.updated', { time: time(progress.at) })}</p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('progress.classes')}</CardTitle>
        </CardHeader>
        {/* A scrolling region takes focus so a keyboard can scroll it (axe scrollable-region-focusable). */}
        <CardContent className="max-h-[28rem] overflow-auto" tabIndex={0} role="region" aria-label={t('progress.classes')}>
          <table className="w-full text-sm">
            <thead>
              <tr className="text-muted-foreground text-left">
                <th className="py-1 font-normal">{t('progress.class')}</th>
                <th className="py-1 pl-3 text-right font-normal">{t('progress.done')}</th>
                <th className="py-1 pl-3 text-right font-normal">{t('progress.waiting')}</th>
                <th className="py-1 pl-3 text-right font-normal">{t('progress.missing')}</th>
                <th className="py-1 pl-3 font-normal">{t('progress.who')}</th>
              </tr>
            </thead>
            <tbody>
              {progress.classes.map((c) => (
                <tr key={c.id} className="border-t align-top">
                  <td className="py-1 whitespace-nowrap">{c.name}</td>
                  <td className="py-1 pl-3 text-right tabular-nums">{c.done}</td>
                  <td className="py-1 pl-3 text-right tabular-nums">{c.waiting}</td>
                  <td className="py-1 pl-3 text-right tabular-nums">{c.missing}</td>
                  <td className="text-muted-foreground py-1 pl-3 text-xs">
                    {c.missingStudents.slice(0, 8).map((s) => s.name).join(t('progress.separator'))}
                    {c.missingStudents.length > 8 ? t('progress.more', { count: c.waiting + c.missing - 8 }) : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>
    </div>
  );
}

/** The station form in a dialog: name, items of the plan (one station per item), venue, devices and teachers. */
function StationDialog({ family, planId, rows, open, onOpenChange, done }: { family: TestDayFamily; planId: string } & ActionDialogProps<StationRow>) {
  const { t } = useTranslation('testDay');
  const [row] = rows;
  const options = useStationOptions(family, planId);
  const save = stations(family).useSave(row?.id);
  const [venueId, setVenueId] = useState(row?.venueId ?? '');
  const o = options.data;
  const takenElsewhere = new Map((o?.taken ?? []).filter((x) => x.stationId !== row?.id).map((x) => [x.item, x.station]));
  const defaults: StationForm = row
    ? { planId, name: row.name, items: row.items, venueId: row.venueId ?? '', deviceIds: row.deviceIds, teacherIds: row.teacherIds, note: row.note ?? '', version: row.version }
    : { planId, name: '', items: [], venueId: '', deviceIds: [], teacherIds: [], note: '' };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={stationSaveSchema}
      defaults={defaults}
      title={t(row ? 'station.editTitle' : 'station.addTitle')}
      submit={(body) => save.mutateAsync(body)}
      onDone={done}
      ready={() => Boolean(o)}
      className="sm:max-w-2xl"
      data-testid="station-dialog"
    >
      {() => (
        <div className="grid gap-4">
          <TextField name="name" label={t('station.name')} required />
          <CheckboxGroupField
            name="items"
            label={t('station.items')}
            required
            options={(o?.items ?? []).map((i) => ({
              value: i,
              label: takenElsewhere.has(i) ? t('station.itemAt', { item: t(`physique:item.${i}`), station: takenElsewhere.get(i) }) : t(`physique:item.${i}`),
              disabled: takenElsewhere.has(i),
            }))}
          />
          <SelectField name="venueId" label={t('station.venue')} options={(o?.venues ?? []).map((v) => ({ value: v.id, label: v.name }))} onValueChange={setVenueId} />
          <CheckboxGroupField
            name="deviceIds"
            label={t('station.devices')}
            description={t('station.devicesHint')}
            options={(o?.devices ?? []).filter((d) => !venueId || d.venueId === venueId || row?.deviceIds.includes(d.id)).map((d) => ({ value: d.id, label: `${d.name}（${d.serialNo}）` }))}
          />
          <CheckboxGroupField name="teacherIds" label={t('station.teachers')} options={(o?.teachers ?? []).map((x) => ({ value: x.id, label: x.name }))} />
          <TextareaField name="note" label={t('station.note')} />
        </div>
      )}
    </FormDialog>
  );
}
