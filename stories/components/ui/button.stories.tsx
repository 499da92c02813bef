import type { Meta, StoryObj } from '@storybook/react-vite';
import { Plus, RefreshCw, Trash } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

const meta = {
  title: 'UI/Button',
  component: Button,
  args: { variant: 'default', size: 'default', loading: false, disabled: false },
  argTypes: {
    variant: { control: 'inline-radio', options: ['default', 'secondary', 'outline', 'ghost', 'destructive', 'link'] },
    size: { control: 'inline-radio', options: ['sm', 'default', 'lg', 'icon'] },
  },
} satisfies Meta<typeof Button>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Playground: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    return <Button {...args}>{args.size === 'icon' ? <Plus aria-hidden /> : t('action.save')}</Button>;
  },
};

export const Variants: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <div className="flex flex-wrap items-center gap-3">
        <Button>{t('action.add')}</Button>
        <Button variant="secondary">{t('action.export')}</Button>
        <Button variant="outline">{t('action.reset')}</Button>
        <Button variant="ghost">{t('action.more')}</Button>
        <Button variant="destructive">
          <Trash aria-hidden />
          {t('action.delete')}
        </Button>
        <Button variant="link">{t('action.view')}</Button>
      </div>
    );
  },
};

export const Sizes: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <div className="flex flex-wrap items-center gap-3">
        <Button size="sm">{t('action.search')}</Button>
        <Button>{t('action.search')}</Button>
        <Button size="lg">{t('action.search')}</Button>
        <Button size="icon" aria-label={t('action.refresh')}>
          <RefreshCw aria-hidden />
        </Button>
      </div>
    );
  },
};

export const Loading: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <div className="flex flex-wrap items-center gap-3">
        <Button loading>{t('action.save')}</Button>
        <Button variant="outline" loading>
          {t('action.import')}
        </Button>
        <Button disabled>{t('action.submit')}</Button>
      </div>
    );
  },
};
