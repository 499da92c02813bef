import type { Meta, StoryObj } from '@storybook/react-vite';
import { ITEM_KEYS } from '@/domain/physique/standard';
import { ClassStudentsTable } from '@/features/data-center/components/class-students-table';
import { classStudents } from './fixtures';

const meta = {
  title: 'Features/Data centre/Class students table',
  component: ClassStudentsTable,
  parameters: { layout: 'padded' },
  args: { rows: classStudents(40), items: ITEM_KEYS.filter((k) => k !== 'run800m' && k !== 'sitUp1min'), height: 520 },
} satisfies Meta<typeof ClassStudentsTable>;
export default meta;
type Story = StoryObj<typeof meta>;

export const OneClass: Story = {};

/** Virtual rows: 10,000 students scroll as lightly as forty. */
export const TenThousandRows: Story = { args: { rows: classStudents(10_000) } };
