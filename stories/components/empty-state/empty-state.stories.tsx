import type { Meta, StoryObj } from '@storybook/react-vite';
import { ClipboardList } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state/empty-state';
import { Button } from '@/components/ui/button';

const meta = {
  title: 'Components/EmptyState',
  component: EmptyState,
} satisfies Meta<typeof EmptyState>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const WithAction: Story = {
  render: function Render() {
    const { t } = useTranslation('components');
    return (
      <EmptyState
        icon={<ClipboardList aria-hidden className="size-10 text-muted-foreground/60" strokeWidth={1.25} />}
        title={t('demo.noPlans')}
        description={t('demo.noPlansHint')}
        action={<Button>{t('demo.add')}</Button>}
      />
    );
  },
};
