import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';

const meta = {
  title: 'UI/Select',
  component: Select,
  args: { options: [], disabled: false },
} satisfies Meta<typeof Select>;
export default meta;
type Story = StoryObj<typeof meta>;

function useSportOptions() {
  const { t } = useTranslation('ui');
  return (['run50', 'ropeSkipping', 'longJump', 'sitAndReach', 'pullUp'] as const).map((k) => ({
    value: k,
    label: t(`demo.sports.${k}`),
    disabled: k === 'pullUp',
  }));
}

export const Default: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    const options = useSportOptions();
    const [value, setValue] = useState<string>('');
    return (
      <div className="grid max-w-xs gap-2">
        <Label htmlFor="sport">{t('demo.sport')}</Label>
        <Select {...args} id="sport" options={options} value={value} onValueChange={setValue} />
      </div>
    );
  },
};

export const WithValue: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    const options = useSportOptions();
    const [value, setValue] = useState<string>('ropeSkipping');
    return <Select className="max-w-xs" aria-label={t('demo.sport')} options={options} value={value} onValueChange={setValue} />;
  },
};

export const Invalid: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return <Select className="max-w-xs" aria-label={t('demo.sport')} aria-invalid options={useSportOptions()} />;
  },
};

export const Empty: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return <Select className="max-w-xs" aria-label={t('demo.sport')} options={[]} />;
  },
};
