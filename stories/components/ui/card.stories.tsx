import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

const meta = {
  title: 'UI/Card',
  component: Card,
} satisfies Meta<typeof Card>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Stat: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <Card className="max-w-sm">
        <CardHeader>
          <CardTitle>{t('demo.cardTitle')}</CardTitle>
          <CardDescription>{t('demo.cardDescription')}</CardDescription>
          <CardAction>
            <Badge variant="success">{t('demo.excellent')}</Badge>
          </CardAction>
        </CardHeader>
        <CardContent>
          <p className="text-3xl font-semibold text-primary tabular-nums theme-wall:text-5xl wall:text-6xl">{t('demo.cardValue')}</p>
        </CardContent>
        <CardFooter className="justify-end gap-2">
          <Button variant="outline" size="sm">
            {t('action.export')}
          </Button>
          <Button size="sm">{t('action.view')}</Button>
        </CardFooter>
      </Card>
    );
  },
};
