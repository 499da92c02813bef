import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';

const meta = {
  title: 'UI/Checkbox',
  component: Checkbox,
  args: { disabled: false },
} satisfies Meta<typeof Checkbox>;
export default meta;
type Story = StoryObj<typeof meta>;

export const States: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    const items = [
      { id: 'c1', label: t('demo.sports.run50'), checked: true },
      { id: 'c2', label: t('demo.sports.ropeSkipping'), checked: false },
      { id: 'c3', label: t('demo.sports.longJump'), checked: 'indeterminate' as const },
      { id: 'c4', label: t('demo.sports.pullUp'), checked: false, disabled: true },
    ];
    return (
      <div className="grid gap-3">
        {items.map((i) => (
          <div key={i.id} className="flex items-center gap-2">
            <Checkbox id={i.id} defaultChecked={i.checked} disabled={i.disabled} {...args} />
            <Label htmlFor={i.id}>{i.label}</Label>
          </div>
        ))}
      </div>
    );
  },
};
