import { useMemo, useState } from 'react';
import { Ban, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { contestEntryInvalidBody, contestEntryListQuery, contestPageKey, ENTRY_REASON_MAX, type ContestEntryRow, type ContestRow } from '@/domain/contests/contests';
import { ACTIVITY_SOURCE_TABLE } from '@/domain/activities/items';
import { enumOptions } from '@/domain/presentation';
import type { Family } from '@/domain/menus/access';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { ValidityDialog, type ValidityRequest } from '@/components/list/validity-dialog';
import { Badge } from '@/components/ui/badge';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/cn';
import { useActivityFormat } from '../../components/activities/format';
import { contestEntries, useContestOptions, useSetEntryValidity } from './api';

type Filters = { classId?: string; item?: string; source?: string; invalid?: string; keyword?: string };
const col = createDataTableColumnHelper<ContestEntryRow>();

/**
 * The entries of a contest under its leaderboard (docs/product-rules.md#contests): student, class, item, value, time and
 * source; set invalid with a reason (the entry leaves the board at once) or valid again, one row or the selected rows;
 * export of the filtered entries.
 */
export function ContestEntries({ family, contest }: { family: Family; contest: ContestRow }) {
  const { t } = useTranslation('contests');
  const fmt = useActivityFormat();
  const key = contestPageKey(family);
  const api = contestEntries(family, contest.id);
  const state = useListState<Filters>(['classId', 'item', 'source', 'invalid', 'keyword']);
  const query = api.useList(state.query);
  const options = useContestOptions(family);
  const setValidity = useSetEntryValidity(family, contest.id);
  const [pending, setPending] = useState<ValidityRequest<ContestEntryRow> | null>(null);
  const ask = (rows: ContestEntryRow[], invalid: boolean) => setPending({ rows, invalid });

  const filters: FilterDef<Filters>[] = [
    { name: 'classId', type: 'select', label: t('entries.filter.class'), options: (options.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name })) },
    ...(contest.items.length > 1
      ? [{ name: 'item', type: 'select', label: t('entries.filter.item'), options: contest.items.map((k) => ({ value: k, label: fmt.item(k) })) } as const]
      : []),
    { name: 'source', type: 'select', label: t('entries.filter.source'), className: 'w-28', options: enumOptions(ACTIVITY_SOURCE_TABLE, t) },
    {
      name: 'invalid',
      type: 'select',
      label: t('entries.filter.validity'),
      className: 'w-28',
      options: [
        { value: 'false', label: t('entries.valid') },
        { value: 'true', label: t('entries.invalid') },
      ],
    },
    { name: 'keyword', type: 'text', label: t('entries.filter.keyword'), placeholder: t('entries.filter.keywordPlaceholder') },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('entries.column.name'),
          cell: ({ row }) => (
            <span className="flex flex-col leading-tight">
              <span className={cn('font-medium', row.original.invalid && 'text-muted-foreground line-through')}>{row.original.name}</span>
              <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">{row.original.regNo}</span>
            </span>
          ),
        }),
        col.accessor('className', { header: t('entries.column.className'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
        col.accessor('item', { header: t('entries.column.item'), cell: ({ getValue }) => fmt.item(getValue()) }),
        col.accessor('value', {
          header: t('entries.column.value'),
          meta: { align: 'right' },
          cell: ({ row }) => (
            <span className={cn('font-medium whitespace-nowrap tabular-nums', row.original.invalid && 'text-muted-foreground line-through')}>
              {fmt.value(row.original.item, row.original.value)}
            </span>
          ),
        }),
        col.accessor('measuredAt', { header: t('entries.column.measuredAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{fmt.dateTime(getValue())}</span> }),
        col.accessor('source', {
          header: t('entries.column.source'),
          cell: ({ row }) => (
            <span className="flex flex-col leading-tight">
              <span>{fmt.source(row.original.source)}</span>
              {row.original.deviceSn ? <span className="text-xs text-muted-foreground">{row.original.deviceSn}</span> : null}
            </span>
          ),
        }),
        col.accessor('invalid', {
          header: t('entries.column.validity'),
          cell: ({ row }) =>
            row.original.invalid ? (
              <span className="flex flex-col items-start gap-1">
                <Badge variant="destructive">{t('entries.invalid')}</Badge>
                {row.original.invalidReason ? <span className="max-w-48 text-xs break-words text-muted-foreground">{row.original.invalidReason}</span> : null}
              </span>
            ) : (
              <Badge variant="secondary">{t('entries.valid')}</Badge>
            ),
        }),
        rowActionsColumn<ContestEntryRow>({
          pageKey: key,
          header: t('entries.column.actions'),
          actions: [
            { action: 'invalid', icon: <Ban aria-hidden />, destructive: true, hidden: (r) => r.invalid, onClick: (r) => ask([r], true) },
            { action: 'valid', icon: <RotateCcw aria-hidden />, hidden: (r) => !r.invalid, onClick: (r) => ask([r], false) },
          ],
        }),
      ]),
    [t, fmt, key],
  );

  const one = pending?.rows.length === 1 ? pending.rows[0] : null;
  const what = one ? { name: one.name, item: fmt.item(one.item), value: fmt.value(one.item, one.value) } : {};
  return (
    <>
      <ListScreen
        pageKey={key}
        section={{ title: t('entries.title') }}
        description={t('entries.hint')}
        state={state}
        querySchema={contestEntryListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        selectable
        toolbar={[
          { action: 'invalid', icon: <Ban aria-hidden />, needsSelection: true, onClick: (rows) => ask(rows.filter((r) => !r.invalid), true) },
          { action: 'valid', icon: <RotateCcw aria-hidden />, needsSelection: true, onClick: (rows) => ask(rows.filter((r) => r.invalid), false) },
        ]}
        onExport={(f) => api.exportList(f)}
        exportLayout="list"
        data-testid="contest-entries"
      />
      <ValidityDialog
        request={pending}
        onClose={() => setPending(null)}
        title={
          one
            ? t(pending?.invalid ? 'entries.invalidTitle' : 'entries.validTitle')
            : t(pending?.invalid ? 'entries.bulkInvalidTitle' : 'entries.bulkValidTitle', { count: pending?.rows.length ?? 0 })
        }
        description={one ? t(pending?.invalid ? 'entries.invalidText' : 'entries.validText', what) : pending?.invalid ? t('entries.bulkInvalidText') : undefined}
        reason={{
          id: 'entry-invalid-reason',
          label: t('entries.reason'),
          placeholder: t('entries.reasonPlaceholder'),
          max: ENTRY_REASON_MAX,
          required: true,
          // The same rule as the server's: a reason is required.
          checkReason: (reason) => {
            const issue = contestEntryInvalidBody.safeParse({ ids: pending!.rows.map((r) => r.id), reason }).error?.issues.find((i) => i.path[0] === 'reason');
            return issue ? t(issue.message) : null;
          },
        }}
        onConfirm={async (reason) => {
          const res = await setValidity.mutateAsync({ ids: pending!.rows.map((r) => r.id), reason, invalid: pending!.invalid });
          toast.success(t('entries.changed', { count: res.changed }));
        }}
      />
    </>
  );
}
