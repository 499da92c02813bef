import type { Meta, StoryObj } from '@storybook/react-vite';
import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';

const meta = {
  title: 'UI/Tooltip',
  component: Tooltip,
  args: { content: '', children: <span />, side: 'top' },
  argTypes: { side: { control: 'inline-radio', options: ['top', 'right', 'bottom', 'left'] } },
} satisfies Meta<typeof Tooltip>;
export default meta;
type Story = StoryObj<typeof meta>;

export const IconButton: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    return (
      <div className="p-12">
        <Tooltip content={t('demo.refreshHint')} side={args.side}>
          <Button size="icon" variant="outline" aria-label={t('action.refresh')}>
            <RefreshCw aria-hidden />
          </Button>
        </Tooltip>
      </div>
    );
  },
};

export const Open: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <div className="p-12">
        <Tooltip content={t('demo.refreshHint')} defaultOpen side="right">
          <Button variant="outline">{t('action.refresh')}</Button>
        </Tooltip>
      </div>
    );
  },
};
