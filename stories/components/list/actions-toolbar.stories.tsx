import type { Meta, StoryObj } from '@storybook/react-vite';
import { useHydrateAtoms } from 'jotai/utils';
import { useTranslation } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import type { ExerciseRecordRow } from '@/domain/activities/exercise-records';
import { pageAccess } from '@/domain/menus/access';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen } from '@/components/list/list-screen';
import { validityActions, type PageActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { Badge } from '@/components/ui/badge';
import { permissionsAtom } from '@/lib/permissions';

// A list whose row and toolbar buttons come from one actions map: the validity pair and an export, on the exercise
// records page with a role holding its buttons. The writes are stand-ins that wait a moment.
const key = 'k12.sportData.exerciseRecord';
const access = pageAccess(key);
const rows = [
  { id: '1', name: '张三', className: '七年级1班', value: 1200, invalid: false },
  { id: '2', name: '李四', className: '七年级1班', value: 800, invalid: true },
  { id: '3', name: '王五', className: '七年级2班', value: 1500, invalid: false },
] as unknown as ExerciseRecordRow[];
const col = createDataTableColumnHelper<ExerciseRecordRow>();

function Records({ held }: { held: string[] }) {
  useHydrateAtoms([[permissionsAtom, new Set(held)]]);
  const { t } = useTranslation('activities');
  const state = useListState<{ name?: string }>(['name']);
  const columns = col.columns([
    col.accessor('name', { header: t('exerciseRecords.column.name') }),
    col.accessor('className', { header: t('exerciseRecords.column.className') }),
    col.accessor('invalid', {
      header: t('exerciseRecords.column.validity'),
      cell: ({ getValue }) => (getValue() ? <Badge variant="destructive">{t('exerciseRecords.invalid')}</Badge> : <Badge variant="secondary">{t('exerciseRecords.valid')}</Badge>),
    }),
  ]);
  const wait = () => new Promise((resolve) => setTimeout(resolve, 600));
  const actions: PageActions<ExerciseRecordRow> = {
    ...validityActions<ExerciseRecordRow>({
      isInvalid: (r) => r.invalid,
      run: async (picked) => (await wait(), { changed: picked.length }),
      title: (picked, invalid) => t(invalid ? 'exerciseRecords.bulkInvalidTitle' : 'exerciseRecords.bulkValidTitle', { count: picked.length }),
      reason: { id: 'story-reason', label: t('exerciseRecords.reason'), max: 100 },
      success: (res) => t('exerciseRecords.changed', { count: (res as { changed: number }).changed }),
    }),
    export: { button: 'export', where: 'toolbar', run: wait },
  };
  const query = { data: { records: rows, total: rows.length, current: 1, size: 10 }, isPending: false, isFetching: false, error: null, refetch: () => undefined };
  return <ListScreen pageKey={key} state={state} filters={[]} query={query} columns={columns} rowKey="id" selectable actions={actions} />;
}

const meta = {
  title: 'List/Actions toolbar',
  component: Records,
  decorators: [(Story) => <MemoryRouter>{Story()}</MemoryRouter>],
} satisfies Meta<typeof Records>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every button of the page held: set invalid / restore on rows and on the selection, and export. */
export const AllButtons: Story = { args: { held: [access.view, access.need('invalid'), access.need('valid'), access.need('export')] } };

/** Without the "restore" button: rows and toolbar lose it. */
export const WithoutRestore: Story = { args: { held: [access.view, access.need('invalid')] } };
