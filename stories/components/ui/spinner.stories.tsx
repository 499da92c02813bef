import type { Meta, StoryObj } from '@storybook/react-vite';
import { Spinner } from '@/components/ui/spinner';

const meta = {
  title: 'UI/Spinner',
  component: Spinner,
} satisfies Meta<typeof Spinner>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Sizes: Story = {
  render: () => (
    <div className="flex items-center gap-6 text-primary">
      <Spinner />
      <Spinner className="text-2xl" />
      <Spinner className="text-4xl text-muted-foreground" />
    </div>
  ),
};
