import type { Meta, StoryObj } from '@storybook/react-vite';
import { KpiCards } from '@/features/data-center/components/kpi-cards';
import { indicators } from './fixtures';

const meta = {
  title: 'Features/Data centre/KPI cards',
  component: KpiCards,
  parameters: { layout: 'padded' },
  args: { indicators: indicators(78.4) },
} satisfies Meta<typeof KpiCards>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Console: Story = {};

/** The wall variant: large type for a screen across a gym (pick the wall theme in the toolbar). */
export const Wall: Story = { args: { wall: true } };
