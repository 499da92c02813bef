import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ClassStudentRow, WatchReason } from '@/domain/data-center/types';
import { SCORE_LEVELS } from '@/domain/physique/level';
import type { ItemKey } from '@/domain/physique/standard';
import { CELL_TEXT, createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { formatScore, itemLabel, itemShortLabel } from '../format';
import { formatRawValue } from '../format-raw';

const col = createDataTableColumnHelper<ClassStudentRow>();
const studentKey = (r: ClassStudentRow) => r.studentId;
const BMI_BANDS = ['normal', 'lowWeight', 'overweight', 'obese'] as const;

const LEVEL_TEXT: Record<string, string> = {
  excellent: 'text-success',
  good: 'text-primary',
  pass: 'text-foreground',
  fail: `text-destructive ${CELL_TEXT.medium}`,
  normal: 'text-success',
  lowWeight: 'text-info',
  overweight: 'text-warning',
  obese: `text-destructive ${CELL_TEXT.medium}`,
};

/** A cell's padding and a little room for the estimate below. */
const CELL_PADDING = 28;
/** An item cell's width without its level's name: padding and a raw value and score such as "3425 · 100 · ". */
const ITEM_CELL_WIDTH = CELL_PADDING + 76;
/** About how wide a short label is at the table's 14 px: a Chinese character a full em, other characters less than half. */
const textWidth = (text: string) => [...text].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 14 : 6.5), 0);

const CHANGE_TEXT = (value: number) => (value <= -5 ? 'text-destructive' : value < 0 ? 'text-warning' : value > 0 ? 'text-success' : 'text-muted-foreground');

/**
 * Columns of the class table. Each item is ONE column showing "raw · score · level" as one run of text, sorted by
 * score: three cells and styled pieces per item made scrolling 100,000 rows miss frames (table layout and text
 * shaping grow with cells; tests/bench/class-table-scroll.ts). Cells are plain text, coloured by `cellClass` on the
 * cell itself: a styled element per cell was another element to style and lay out for each row entering the view.
 */
function buildColumns(t: TFunction, items: readonly ItemKey[]) {
  // Labels looked up once, not per cell per frame.
  const level = new Map<string, string>([
    ...SCORE_LEVELS.map((l): [string, string] => [l, t(`physique:level.${l}`)]),
    ...BMI_BANDS.map((b): [string, string] => [`bmi:${b}`, t(`physique:bmiLevel.${b}`)]),
  ]);
  const levelOf = (value: string | null | undefined, item?: ItemKey) => (value ? (level.get(item === 'bmi' ? `bmi:${value}` : value) ?? value) : '');
  const gender = { male: t('physique:gender.male'), female: t('physique:gender.female') };
  // The level column and each item's cell ("3425 · 90 · Excellent") are as wide as the longest level name in this
  // language needs, so English levels are not cut off (a column's width is fixed in a virtual table).
  const levelRoom = (names: readonly string[]) => Math.ceil(Math.max(...names.map(textWidth)));
  const scoreLevels = levelRoom(SCORE_LEVELS.map((l) => level.get(l)!));
  const bmiLevels = levelRoom(BMI_BANDS.map((b) => level.get(`bmi:${b}`)!));
  const itemWidth = (item: ItemKey) => Math.max(140, ITEM_CELL_WIDTH + (item === 'bmi' ? bmiLevels : scoreLevels));

  return col.columns([
    col.accessor((r) => r.studentNo ?? undefined, {
      id: 'studentNo',
      header: t('dashboard:student.studentNo'),
      enableSorting: true,
      sortUndefined: 'last',
      // Free text (a school's own numbering, a long name): cut with an ellipsis rather than run into the next cell.
      meta: { width: 116, className: 'truncate' },
    }),
    col.accessor('name', { header: t('dashboard:student.name'), enableSorting: true, meta: { width: 96, className: `truncate ${CELL_TEXT.medium}` } }),
    col.accessor('gender', { header: t('dashboard:student.gender'), meta: { width: 56 }, cell: ({ getValue }) => gender[getValue()] }),
    col.accessor((r) => r.total ?? undefined, {
      id: 'total',
      header: t('physique:score.total'),
      enableSorting: true,
      sortUndefined: 'last',
      meta: { width: 88, align: 'right', className: `${CELL_TEXT.semibold} ${CELL_TEXT.tabularNums}` },
      cell: ({ getValue }) => formatScore(getValue()),
    }),
    col.accessor((r) => r.level ?? undefined, {
      id: 'level',
      header: t('physique:score.level'),
      meta: { width: Math.max(72, CELL_PADDING + scoreLevels), cellClass: (r: ClassStudentRow) => LEVEL_TEXT[r.level ?? ''] },
      cell: ({ getValue }) => levelOf(getValue()),
    }),
    col.accessor((r) => r.change ?? undefined, {
      id: 'change',
      header: t('dashboard:classTable.change'),
      enableSorting: true,
      sortUndefined: 'last',
      meta: { width: 76, align: 'right', className: CELL_TEXT.tabularNums, cellClass: (r: ClassStudentRow) => (r.change == null ? undefined : CHANGE_TEXT(r.change)) },
      cell: ({ getValue }) => {
        const v = getValue();
        return v === undefined ? '' : v > 0 ? `+${v.toFixed(1)}` : v.toFixed(1);
      },
    }),
    ...items.map((item) =>
      col.accessor((r) => r.items[item]?.score ?? undefined, {
        id: item,
        header: () => (
          <span title={itemLabel(t, item)} className="flex flex-col items-start leading-tight">
            {itemShortLabel(t, item)}
            <span className="text-[11px] font-normal text-muted-foreground">{t('dashboard:classTable.itemParts')}</span>
          </span>
        ),
        enableSorting: true,
        sortUndefined: 'last',
        meta: { width: itemWidth(item), className: CELL_TEXT.tabularNums, cellClass: (r: ClassStudentRow) => LEVEL_TEXT[r.items[item]?.level ?? ''] },
        cell: ({ row }) => {
          const r = row.original.items[item];
          return r ? `${formatRawValue(item, r.raw)} · ${r.score ?? '—'} · ${levelOf(r.level, item)}` : '';
        },
      }),
    ),
  ]);
}

export interface ClassStudentsTableProps {
  rows: readonly ClassStudentRow[];
  /** Item columns to show, in order. */
  items: readonly ItemKey[];
  loading?: boolean;
  onRowClick?(row: ClassStudentRow): void;
  height?: number;
}

/**
 * The students of a class with every item's raw value, score and level (docs/product-rules.md#data-centre): sortable, virtual rows so
 * 100,000 rows scroll smoothly (tests/bench/class-table-scroll.ts).
 */
export function ClassStudentsTable({ rows, items, loading, onRowClick, height = 560 }: ClassStudentsTableProps) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const columns = useMemo(() => buildColumns(t, items), [t, items]);
  return (
    <DataTable
      aria-label={t('dashboard:classTable.title')}
      columns={columns}
      data={rows}
      rowKey={studentKey}
      loading={loading}
      virtual
      phone={{ mode: 'scroll' }}
      height={height}
      rowHeight={36}
      onRowClick={onRowClick}
    />
  );
}

/** Reasons to watch a student, as short labels. */
export function watchLabels(t: TFunction, reasons: readonly WatchReason[]): string[] {
  return reasons.map((r) => t(`dashboard:watch.${r}`));
}
