import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

const meta = {
  title: 'UI/Dialog',
  component: Dialog,
  args: { defaultOpen: false },
} satisfies Meta<typeof Dialog>;
export default meta;
type Story = StoryObj<typeof meta>;

function EditClass({ defaultOpen }: { defaultOpen?: boolean }) {
  const { t } = useTranslation('ui');
  return (
    <Dialog defaultOpen={defaultOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">{t('action.edit')}</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('demo.editClassTitle')}</DialogTitle>
          <DialogDescription>{t('demo.editClassDescription')}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="dlg-class">{t('demo.className')}</Label>
          <Input id="dlg-class" placeholder={t('demo.classNamePlaceholder')} />
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{t('cancel')}</Button>
          </DialogClose>
          <DialogClose asChild>
            <Button>{t('action.save')}</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export const Default: Story = {
  render: (args) => <EditClass defaultOpen={args.defaultOpen} />,
};

export const Open: Story = {
  render: () => <EditClass defaultOpen />,
};
