import type { Meta, StoryObj } from '@storybook/react-vite';
import { PlanStatusBadge } from '@/features/test-plans/components/plan-status-badge';

const meta = {
  title: 'Features/Test plans/Plan status badge',
  component: PlanStatusBadge,
  args: { status: 'inProgress' },
  argTypes: { status: { control: 'inline-radio', options: ['notStarted', 'inProgress', 'ended'] } },
} satisfies Meta<typeof PlanStatusBadge>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NotStarted: Story = { args: { status: 'notStarted' } };
export const InProgress: Story = {};
export const Ended: Story = { args: { status: 'ended' } };
