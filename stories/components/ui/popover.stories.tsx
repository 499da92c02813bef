import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { Switch } from '@/components/ui/switch';

const meta = {
  title: 'UI/Popover',
  component: Popover,
  args: { defaultOpen: false },
} satisfies Meta<typeof Popover>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  render: function Render(args) {
    const { t } = useTranslation('ui');
    return (
      <Popover defaultOpen={args.defaultOpen}>
        <PopoverTrigger asChild>
          <Button variant="outline">{t('action.more')}</Button>
        </PopoverTrigger>
        <PopoverContent align="start" className="grid gap-3">
          <p className="text-sm text-muted-foreground">{t('demo.popoverText')}</p>
          <div className="flex items-center gap-2">
            <Switch id="pop-notify" defaultChecked />
            <Label htmlFor="pop-notify">{t('demo.notify')}</Label>
          </div>
        </PopoverContent>
      </Popover>
    );
  },
};

export const Open: Story = { ...Default, args: { defaultOpen: true } };
