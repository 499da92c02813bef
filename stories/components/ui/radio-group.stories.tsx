import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { RadioChoice, RadioGroup } from '@/components/ui/radio-group';

const meta = {
  title: 'UI/RadioGroup',
  component: RadioGroup,
} satisfies Meta<typeof RadioGroup>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Gender: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <div className="grid gap-2">
        <Label id="gender-label">{t('demo.gender')}</Label>
        <RadioGroup aria-labelledby="gender-label" defaultValue="male" className="flex gap-6">
          <RadioChoice id="g-male" value="male">
            {t('demo.male')}
          </RadioChoice>
          <RadioChoice id="g-female" value="female">
            {t('demo.female')}
          </RadioChoice>
        </RadioGroup>
      </div>
    );
  },
};
