import { useEffect } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Toaster } from '@/components/ui/toast';
import { toast } from '@/lib/toast';

// The Toaster is mounted by the preview decorator; this story only raises toasts.
const meta = {
  title: 'UI/Toast',
  component: Toaster,
} satisfies Meta<typeof Toaster>;
export default meta;
type Story = StoryObj<typeof meta>;

function Buttons() {
  const { t } = useTranslation(['ui', 'common', 'errors']);
  return (
    <div className="flex flex-wrap gap-3">
      <Button onClick={() => toast.success(t('common:msg.saveOk'))}>{t('demo.excellent')}</Button>
      <Button variant="destructive" onClick={() => toast.error(t('errors:network'))}>
        {t('demo.fail')}
      </Button>
      <Button variant="secondary" onClick={() => toast.warning(t('errors:notLoggedIn'))}>
        {t('demo.pending')}
      </Button>
      <Button variant="outline" onClick={() => toast.info(t('demo.infoToast'), { description: t('demo.scoresText') })}>
        {t('demo.good')}
      </Button>
    </div>
  );
}

export const Kinds: Story = {
  render: () => <Buttons />,
};

/** Four toasts already shown, for visual review. Fixed ids make re-raising replace rather than stack. */
export const Shown: Story = {
  render: function Render() {
    const { t } = useTranslation(['ui', 'common', 'errors']);
    useEffect(() => {
      const keep = { duration: 600_000 };
      toast.success(t('common:msg.saveOk'), { id: 'demo-success', ...keep });
      toast.error(t('errors:network'), { id: 'demo-error', ...keep });
      toast.warning(t('errors:notLoggedIn'), { id: 'demo-warning', ...keep });
      toast.info(t('demo.infoToast'), { id: 'demo-info', description: t('demo.scoresText'), ...keep });
      return () => toast.dismiss();
    }, [t]);
    return <Buttons />;
  },
};
