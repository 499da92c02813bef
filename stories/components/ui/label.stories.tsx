import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';

const meta = {
  title: 'UI/Label',
  component: Label,
} satisfies Meta<typeof Label>;
export default meta;
type Story = StoryObj<typeof meta>;

export const WithCheckbox: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <div className="flex items-center gap-2">
        <Checkbox id="agree" />
        <Label htmlFor="agree">{t('demo.agree')}</Label>
      </div>
    );
  },
};
