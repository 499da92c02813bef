import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { stampSaveSchema } from '@/domain/meets/documents';
import { TextField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-error';

// A short form in a dialog: the stamp's name from the real domain schema (its maxLength, its messages). The save is a
// stand-in: "taken" names are refused on the field (400), "stale" as a stale save (409) above the buttons.
const meta = {
  title: 'Form/FormDialog',
  component: FormDialog,
} satisfies Meta<typeof FormDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

function Demo({ initiallyOpen }: { initiallyOpen: boolean }) {
  const { t } = useTranslation(['meets', 'errors']);
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('meets:stamp.uploadTitle')}</Button>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        schema={stampSaveSchema.pick({ name: true })}
        defaults={{ name: '' }}
        title={t('meets:stamp.uploadTitle')}
        description={t('meets:stamp.namePlaceholder')}
        submit={async ({ name }) => {
          await new Promise((resolve) => setTimeout(resolve, 600));
          if (name === 'taken') throw new ApiError(t('meets:stamp.v.name'), '400', 400, 'name');
          if (name === 'stale') throw new ApiError(t('errors:staleWrite'), '409', 409);
          return name;
        }}
      >
        {() => <TextField name="name" label={t('meets:stamp.name')} required placeholder={t('meets:stamp.namePlaceholder')} />}
      </FormDialog>
    </>
  );
}

export const Open: Story = {
  args: {} as never,
  render: () => <Demo initiallyOpen />,
};

export const Closed: Story = {
  args: {} as never,
  render: () => <Demo initiallyOpen={false} />,
};
