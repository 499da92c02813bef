import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/lib/toast';

const meta = {
  title: 'UI/ConfirmDialog',
  component: ConfirmDialog,
  args: { open: false, onOpenChange: () => {}, title: '', onConfirm: () => {}, destructive: false },
} satisfies Meta<typeof ConfirmDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const Delete: Story = {
  render: function Render() {
    const { t } = useTranslation(['ui', 'common']);
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          {t('action.delete')}
        </Button>
        <ConfirmDialog
          open={open}
          onOpenChange={setOpen}
          destructive
          title={t('demo.deleteTitle')}
          description={t('demo.deleteDescription')}
          confirmText={t('action.delete')}
          // Slow on purpose: the confirm button shows a spinner until the promise settles.
          onConfirm={async () => {
            await wait(800);
            toast.success(t('common:msg.deleteOk'));
          }}
        />
      </>
    );
  },
};

/** The "leave the page?" prompt of back buttons (docs/product-rules.md#leaving-a-form), open from the start. */
export const ReturnPrompt: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    const [open, setOpen] = useState(true);
    return (
      <>
        <Button variant="outline" onClick={() => setOpen(true)}>
          {t('action.back')}
        </Button>
        <ConfirmDialog open={open} onOpenChange={setOpen} title={t('demo.returnTitle')} description={t('demo.returnDescription')} onConfirm={() => {}} />
      </>
    );
  },
};
