import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createDataTableColumnHelper, DataTable, type DataTableProps, type SortingState } from '@/components/data-table/data-table';
import { Badge } from '@/components/ui/badge';
import { DEFAULT_PAGE_SIZE } from '@/domain/constants';

interface Result {
  id: number;
  name: string;
  className: string;
  score: number;
}

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗';
const GIVEN = ['子涵', '浩然', '梓萱', '宇轩', '欣怡', '俊杰', '诗涵', '一诺', '思远', '雨桐'];

function makeRows(n: number): Result[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: SURNAMES[i % SURNAMES.length] + GIVEN[(i * 7) % GIVEN.length],
    className: `${7 + (i % 3)}(${1 + (i % 8)})`,
    score: Math.round((55 + ((i * 37) % 450) / 10) * 10) / 10,
  }));
}

const ALL = makeRows(236);
const HUGE = makeRows(100_000);
const col = createDataTableColumnHelper<Result>();

function useColumns() {
  const { t } = useTranslation('components');
  return useMemo(
    () =>
      col.columns([
        col.accessor('id', { header: '#', meta: { width: 80 } }),
        col.accessor('name', { header: t('demo.name'), enableSorting: true, meta: { width: 160 } }),
        col.accessor('className', { header: t('demo.class'), meta: { width: 120 } }),
        col.accessor('score', { header: t('demo.score'), enableSorting: true, meta: { align: 'right', width: 120 } }),
        col.display({
          id: 'level',
          header: t('demo.level'),
          meta: { width: 120 },
          cell: ({ row }) => {
            const s = row.original.score;
            return s >= 90 ? (
              <Badge variant="success">{t('demo.excellent')}</Badge>
            ) : s >= 60 ? (
              <Badge variant="secondary">{t('demo.pass')}</Badge>
            ) : (
              <Badge variant="destructive">{t('demo.fail')}</Badge>
            );
          },
        }),
      ]),
    [t],
  );
}

const meta = {
  title: 'Components/DataTable',
  component: DataTable<Result>,
  parameters: { layout: 'padded' },
  args: { columns: [], rowKey: 'id' },
} satisfies Meta<DataTableProps<Result>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Server paging (10/20/50/80, quick jump, total) with a fake 400 ms server; sortable name and score sort the page. */
export const ServerPaged: Story = {
  render: function Render() {
    const columns = useColumns();
    const [page, setPage] = useState({ current: 1, size: DEFAULT_PAGE_SIZE });
    const [loading, setLoading] = useState(false);
    const [rows, setRows] = useState(() => ALL.slice(0, DEFAULT_PAGE_SIZE));
    const onChange = (current: number, size: number) => {
      setPage({ current, size });
      setLoading(true);
      setTimeout(() => {
        setRows(ALL.slice((current - 1) * size, current * size));
        setLoading(false);
      }, 400);
    };
    return (
      <DataTable
        columns={columns}
        data={rows}
        rowKey="id"
        loading={loading}
        height={420}
        pagination={{ ...page, total: ALL.length, onChange }}
        onRowClick={(r) => console.info('row', r)}
      />
    );
  },
};

/** Sorting handed to the server: the table only reports the wanted order. */
export const ServerSorting: Story = {
  render: function Render() {
    const columns = useColumns();
    const [sorting, setSorting] = useState<SortingState>([{ id: 'score', desc: true }]);
    const rows = useMemo(() => {
      const s = sorting[0];
      if (!s) return ALL.slice(0, 10);
      const k = s.id as keyof Result;
      return [...ALL].sort((a, b) => (a[k] < b[k] ? -1 : a[k] > b[k] ? 1 : 0) * (s.desc ? -1 : 1)).slice(0, 10);
    }, [sorting]);
    return <DataTable columns={columns} data={rows} rowKey="id" sorting={sorting} onSortingChange={setSorting} />;
  },
};

export const Loading: Story = {
  render: function Render() {
    const columns = useColumns();
    return <DataTable columns={columns} data={ALL.slice(0, 5)} rowKey="id" loading />;
  },
};

export const Empty: Story = {
  render: function Render() {
    const columns = useColumns();
    return <DataTable columns={columns} data={[]} rowKey="id" pagination={{ current: 1, size: 10, total: 0, onChange: () => {} }} />;
  },
};

/** 100,000 rows: only the rows in view are in the DOM (fixed 40 px rows, sticky header). */
export const Virtual100k: Story = {
  render: function Render() {
    const columns = useColumns();
    return <DataTable columns={columns} data={HUGE} rowKey="id" virtual height={520} />;
  },
};
