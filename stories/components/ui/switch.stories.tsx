import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';

const meta = {
  title: 'UI/Switch',
  component: Switch,
  args: { disabled: false, defaultChecked: true },
} satisfies Meta<typeof Switch>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    return (
      <div className="flex items-center gap-2">
        <Switch id="notify" {...args} />
        <Label htmlFor="notify">{t('demo.notify')}</Label>
      </div>
    );
  },
};
