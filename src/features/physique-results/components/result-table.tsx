import { useMemo } from 'react';
import { Ban, FileText, Pencil, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { reportPath } from '@/domain/physique-results/report-link';
import type { ResultRow } from '@/domain/physique-results/types';
import { ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';
import { createDataTableColumnHelper, DataTable, type DataTablePaginationState } from '@/components/data-table/data-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';
import { showScore } from '../format';
import { ItemCell, levelTone } from './item-cell';
import { useDateTime } from '@/lib/date-time';
import { gradeNameKey } from '@/domain/school/grade-name';

const col = createDataTableColumnHelper<ResultRow>();

export interface ResultTableProps {
  rows: readonly ResultRow[] | undefined;
  loading: boolean;
  pagination: DataTablePaginationState;
  /** Show the plan column (score search lists several plans). */
  showPlan?: boolean;
  /** Show the school column (admin family). */
  showSchool?: boolean;
  /** Row actions the role holds; absent ones are not rendered (docs/product-rules.md#menus-and-permissions). */
  canInvalid?: boolean;
  canValid?: boolean;
  onToggleInvalid?(row: ResultRow): void;
  onEdit?(row: ResultRow): void;
  'aria-label'?: string;
}

/** Items with a value on this page, in the order of the official tables: the table shows only those columns. */
function itemsOf(rows: readonly ResultRow[] | undefined): ItemKey[] {
  const seen = new Set<ItemKey>();
  for (const r of rows ?? []) for (const k of Object.keys(r.items) as ItemKey[]) seen.add(k);
  return ITEM_KEYS.filter((k) => seen.has(k));
}

/**
 * Physique results (docs/product-rules.md#physique-results: results screen): identity, each item's raw value with score and level, standard score, bonus, total
 * and level; invalid results struck through and badged; a link to each student's report; invalid/restore and edit.
 */
export function ResultTable({ rows, loading, pagination, showPlan, showSchool, canInvalid, canValid, onToggleInvalid, onEdit, 'aria-label': ariaLabel }: ResultTableProps) {
  const { t } = useTranslation(['physiqueResultsUi', 'physique', 'exemptions']);
  const dateTime = useDateTime('medium');
  const items = itemsOf(rows);
  const itemsKey = items.join(',');

  const columns = useMemo(() => {
    const struck = (invalid: boolean) => cn(invalid && 'text-muted-foreground line-through');
    return col.columns([
      col.accessor('name', {
        header: t('column.name'),
        meta: { className: 'sticky left-0 z-[1] bg-card' , headerClassName: 'sticky left-0 z-[1] bg-muted' },
        cell: ({ row }) => (
          <span className="flex flex-col leading-tight">
            <span className="flex items-center gap-1">
              <span className={cn('font-medium whitespace-nowrap', struck(row.original.invalid))} data-testid="result-name">
                {row.original.name}
              </span>
              {/* An approved 免测/缓测 of the plan's school year (docs/product-rules.md#physique-year, "Exemptions"). */}
              {row.original.exemption ? (
                <Tooltip content={t(`exemptions:badgeHint.${row.original.exemption}`)}>
                  <Badge variant={row.original.exemption === 'exempt' ? 'secondary' : 'outline'} className="px-1.5 py-0 text-[11px]" data-testid="result-exemption" tabIndex={0}>
                    {t(`exemptions:badge.${row.original.exemption}`)}
                  </Badge>
                </Tooltip>
              ) : null}
            </span>
            <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">{row.original.regNo}</span>
          </span>
        ),
      }),
      col.accessor('gender', { header: t('column.gender'), cell: ({ getValue }) => t(`physique:gender.${getValue()}`) }),
      col.accessor('className', {
        header: t('column.class'),
        cell: ({ row }) => (
          <span className="flex flex-col leading-tight whitespace-nowrap">
            <span>{row.original.className}</span>
            <span className="text-xs text-muted-foreground">{t(gradeNameKey(row.original.gradeNo), { defaultValue: String(row.original.gradeNo) })}</span>
          </span>
        ),
      }),
      ...(showSchool
        ? [col.accessor('orgName', { header: t('column.school'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> })]
        : []),
      ...(showPlan
        ? [
            col.accessor('planName', {
              header: t('column.plan'),
              cell: ({ row }) => (
                <span className="flex flex-col leading-tight">
                  <span className="whitespace-nowrap">{row.original.planName}</span>
                  <span className="text-xs text-muted-foreground">{row.original.testedOn ?? ''}</span>
                </span>
              ),
            }),
          ]
        : []),
      ...items.map((item) =>
        col.display({
          id: `item-${item}`,
          header: t(`physique:item.${item}`),
          cell: ({ row }) => <ItemCell item={item} result={row.original.items[item]} invalid={row.original.invalid} />,
        }),
      ),
      col.accessor('standardScore', {
        header: t('column.standardScore'),
        meta: { align: 'right' },
        cell: ({ row }) => <span className={cn('tabular-nums', struck(row.original.invalid))}>{showScore(row.original.standardScore)}</span>,
      }),
      col.accessor('bonus', {
        header: t('column.bonus'),
        meta: { align: 'right' },
        cell: ({ row }) => <span className={cn('tabular-nums', struck(row.original.invalid))}>{showScore(row.original.bonus)}</span>,
      }),
      col.accessor('total', {
        header: t('column.total'),
        meta: { align: 'right' },
        enableSorting: true,
        cell: ({ row }) => (
          <span className={cn('font-semibold tabular-nums', struck(row.original.invalid))} data-testid="result-total">
            {showScore(row.original.total)}
          </span>
        ),
      }),
      col.accessor('level', {
        header: t('column.level'),
        cell: ({ row }) => {
          const r = row.original;
          return (
            <span className="flex flex-wrap items-center gap-1 whitespace-nowrap">
              {r.level ? (
                <span className={cn('font-medium', r.invalid ? 'text-muted-foreground line-through' : levelTone(r.level))}>{t(`physique:level.${r.level}`)}</span>
              ) : (
                <Badge variant="outline">{t('level.incomplete')}</Badge>
              )}
              {r.invalid ? (
                <Tooltip content={r.invalidAt ? t('invalidSince', { at: dateTime(r.invalidAt) }) : undefined}>
                  <Badge variant="destructive" data-testid="result-invalid" tabIndex={0}>
                    {t('validity.invalid')}
                  </Badge>
                </Tooltip>
              ) : null}
            </span>
          );
        },
      }),
      col.display({
        id: 'actions',
        header: t('column.actions'),
        meta: { align: 'right', className: 'whitespace-nowrap', pin: 'right' },
        cell: ({ row }) => {
          const r = row.original;
          return (
            <span className="flex justify-end gap-1">
              <Button asChild variant="link" size="sm" className="h-7 px-1.5">
                <Link to={reportPath(r)} data-testid="result-report">
                  <FileText aria-hidden />
                  {t('action.report')}
                </Link>
              </Button>
              {onEdit ? (
                <Button variant="link" size="sm" className="h-7 px-1.5" onClick={() => onEdit(r)} data-testid="result-edit">
                  <Pencil aria-hidden />
                  {t('action.edit')}
                </Button>
              ) : null}
              {onToggleInvalid && !r.invalid && canInvalid ? (
                <Button variant="link" size="sm" className="h-7 px-1.5 text-destructive" onClick={() => onToggleInvalid(r)} data-testid="result-set-invalid">
                  <Ban aria-hidden />
                  {t('action.invalid')}
                </Button>
              ) : null}
              {onToggleInvalid && r.invalid && canValid ? (
                <Button variant="link" size="sm" className="h-7 px-1.5" onClick={() => onToggleInvalid(r)} data-testid="result-restore">
                  <RotateCcw aria-hidden />
                  {t('action.valid')}
                </Button>
              ) : null}
            </span>
          );
        },
      }),
    ]);
    // itemsKey stands for `items`, whose array identity changes every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, dateTime, itemsKey, showPlan, showSchool, canInvalid, canValid, onToggleInvalid, onEdit]);

  // A row per student across every item: scrolled sideways on a phone, the names kept in view.
  return <DataTable aria-label={ariaLabel} columns={columns} data={rows} rowKey="id" loading={loading} pagination={pagination} phone={{ mode: 'scroll' }} />;
}
