import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

const meta = {
  title: 'UI/Input',
  component: Input,
  args: { disabled: false },
} satisfies Meta<typeof Input>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    return (
      <div className="grid max-w-sm gap-2">
        <Label htmlFor="class-name">{t('demo.className')}</Label>
        <Input id="class-name" placeholder={t('demo.classNamePlaceholder')} {...args} />
      </div>
    );
  },
};

export const States: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <div className="grid max-w-sm gap-3">
        <Input placeholder={t('demo.classNamePlaceholder')} aria-label={t('demo.className')} />
        <Input defaultValue={t('demo.studentsText')} aria-label={t('demo.className')} />
        <Input aria-invalid placeholder={t('demo.classNamePlaceholder')} aria-label={t('demo.className')} />
        <Input disabled placeholder={t('demo.classNamePlaceholder')} aria-label={t('demo.className')} />
        <Input type="file" aria-label={t('action.import')} />
      </div>
    );
  },
};
