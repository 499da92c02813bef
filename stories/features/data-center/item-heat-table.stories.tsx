import type { Meta, StoryObj } from '@storybook/react-vite';
import { ItemHeatTable } from '@/features/data-center/components/item-heat-table';
import { byGrade } from './fixtures';

const rows = byGrade.map((g) => ({ id: String(g.gradeNo), label: `${g.gradeNo}`, items: g.items }));
const items = ['vitalCapacity', 'run50m', 'sitAndReach', 'standingLongJump', 'pullUp', 'run1000m', 'sitUp1min', 'run800m'] as const;

const meta = {
  title: 'Features/Data centre/Item heat table',
  component: ItemHeatTable,
  parameters: { layout: 'padded' },
  args: { rows, items: [...items], rowHeader: '年级', onRowClick: () => {} },
} satisfies Meta<typeof ItemHeatTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Mean score of each item by grade; red for the table's lowest, green for its highest. */
export const ByGrade: Story = {};
