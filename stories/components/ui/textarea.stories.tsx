import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

const meta = {
  title: 'UI/Textarea',
  component: Textarea,
  args: { disabled: false },
} satisfies Meta<typeof Textarea>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    return (
      <div className="grid max-w-md gap-2">
        <Label htmlFor="remark">{t('demo.remark')}</Label>
        <Textarea id="remark" placeholder={t('demo.remarkPlaceholder')} {...args} />
      </div>
    );
  },
};
