import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { DatePicker } from '@/components/ui/date-picker';
import { Label } from '@/components/ui/label';

const meta = {
  title: 'UI/DatePicker',
  component: DatePicker,
  args: { onChange: () => {}, disabled: false },
} satisfies Meta<typeof DatePicker>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    const [value, setValue] = useState<string | undefined>('2013-09-01');
    return (
      <div className="grid max-w-xs gap-2">
        <Label htmlFor="birthday">{t('demo.birthday')}</Label>
        <DatePicker {...args} id="birthday" value={value} onChange={setValue} />
      </div>
    );
  },
};

export const Empty: Story = {
  render: function Render(args) {
    const [value, setValue] = useState<string | undefined>();
    return (
      <div className="max-w-xs">
        <DatePicker {...args} value={value} onChange={setValue} />
      </div>
    );
  },
};

export const WithLimits: Story = {
  render: function Render(args) {
    const [value, setValue] = useState<string | undefined>('2026-03-10');
    return (
      <div className="max-w-xs">
        <DatePicker {...args} value={value} onChange={setValue} min="2026-03-01" max="2026-06-30" dropdowns={false} />
      </div>
    );
  },
};
