import { useMemo, useState, type ReactNode } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { createDataTableColumnHelper, DataTable, type DataTableColumns, type RowData } from '@/components/data-table/data-table';

/** A row of a tree table: its own fields plus children. */
export type TreeRow<T> = T & { id: string; children?: readonly TreeRow<T>[] };

export interface TreeTableProps<T extends RowData> {
  rows: readonly TreeRow<T>[];
  /** The first column (indented, with the expand toggle). */
  label: { header: ReactNode; cell(row: TreeRow<T>): ReactNode };
  /** The other columns (row actions included), as for DataTable. */
  columns: DataTableColumns<TreeRow<T>>;
  loading?: boolean;
  /** Rows open at first: all (default) or only the top level. */
  expandAll?: boolean;
  'aria-label'?: string;
}

/** An organisation or department tree as a table: indented first column with expand/collapse, the rest like DataTable. */
export function TreeTable<T extends RowData>({ rows, label, columns, loading, expandAll = true, 'aria-label': ariaLabel }: TreeTableProps<T>) {
  const { t } = useTranslation('components');
  const [closed, setClosed] = useState<ReadonlySet<string>>(() => (expandAll ? new Set() : new Set(rows.map((r) => r.id))));
  const visible = useMemo(() => {
    const out: { row: TreeRow<T>; depth: number }[] = [];
    const walk = (list: readonly TreeRow<T>[], depth: number) => {
      for (const row of list) {
        out.push({ row, depth });
        if (row.children?.length && !closed.has(row.id)) walk(row.children, depth + 1);
      }
    };
    walk(rows, 0);
    return out;
  }, [rows, closed]);
  const depthOf = useMemo(() => new Map(visible.map((v) => [v.row.id, v.depth])), [visible]);
  const all = useMemo(() => {
    const col = createDataTableColumnHelper<TreeRow<T>>();
    const first = col.display({
      id: 'tree-label',
      header: () => label.header,
      cell: ({ row }) => {
        const r = row.original;
        const open = !closed.has(r.id);
        return (
          <span className="flex items-center gap-1" style={{ paddingLeft: (depthOf.get(r.id) ?? 0) * 20 }}>
            {r.children?.length ? (
              <button
                type="button"
                aria-expanded={open}
                aria-label={open ? t('tree.collapse') : t('tree.expand')}
                className="rounded-sm p-0.5 hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                onClick={() =>
                  setClosed((prev) => {
                    const next = new Set(prev);
                    if (open) next.add(r.id);
                    else next.delete(r.id);
                    return next;
                  })
                }
              >
                {open ? <ChevronDown aria-hidden className="size-4" /> : <ChevronRight aria-hidden className="size-4" />}
              </button>
            ) : (
              <span className="inline-block w-5" />
            )}
            {label.cell(r)}
          </span>
        );
      },
    });
    return [first, ...columns] as DataTableColumns<TreeRow<T>>;
  }, [columns, label, closed, depthOf, t]);
  const data = useMemo(() => visible.map((v) => v.row), [visible]);
  return <DataTable aria-label={ariaLabel} columns={all} data={data} rowKey="id" loading={loading} />;
}
