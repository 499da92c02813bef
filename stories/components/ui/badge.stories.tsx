import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';

const meta = {
  title: 'UI/Badge',
  component: Badge,
  args: { variant: 'default' },
  argTypes: { variant: { control: 'inline-radio', options: ['default', 'secondary', 'success', 'warning', 'destructive', 'outline'] } },
} satisfies Meta<typeof Badge>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Physique grade bands (docs/product-rules.md#physique-scoring) and review states. */
export const Variants: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <div className="flex flex-wrap gap-2">
        <Badge>{t('demo.good')}</Badge>
        <Badge variant="success">{t('demo.excellent')}</Badge>
        <Badge variant="secondary">{t('demo.pass')}</Badge>
        <Badge variant="warning">{t('demo.pending')}</Badge>
        <Badge variant="destructive">{t('demo.fail')}</Badge>
        <Badge variant="outline">{t('demo.sports.run50')}</Badge>
      </div>
    );
  },
};
