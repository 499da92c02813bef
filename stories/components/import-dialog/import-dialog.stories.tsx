import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportDialog, type ImportResult } from '@/components/import-dialog/import-dialog';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { SEMESTER } from '@/domain/constants';

const meta = {
  title: 'Components/ImportDialog',
  component: ImportDialog,
  parameters: { layout: 'centered' },
  args: { open: false, onOpenChange: () => {}, title: '', upload: () => Promise.reject(new Error('unused')) },
} satisfies Meta<typeof ImportDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

const fakeUpload = (fileName: string, ms = 2600) => (): Promise<ImportResult> =>
  new Promise((resolve) => setTimeout(() => resolve({ blob: new Blob(['demo'], { type: 'application/octet-stream' }), fileName }), ms));

/** Choose an .xlsx: the bar rises 10 every 500 ms to 90, then 12 imported and 3 failed, with the failure export. */
export const WithFailures: Story = {
  render: function Render() {
    const { t } = useTranslation('components');
    const [open, setOpen] = useState(true);
    return (
      <>
        <Button onClick={() => setOpen(true)}>{t('demo.importStudents')}</Button>
        <ImportDialog
          open={open}
          onOpenChange={setOpen}
          title={t('demo.importStudents')}
          upload={fakeUpload('学生导入结果_12_3.xlsx')}
          onDownloadTemplate={() => console.info('template')}
        />
      </>
    );
  },
};

/** Student import needs school year and semester first (docs/product-rules.md#people-import). */
export const NeedsYearAndSemester: Story = {
  render: function Render() {
    const { t } = useTranslation(['components', 'errors']);
    const [open, setOpen] = useState(true);
    const [year, setYear] = useState('');
    const [semester, setSemester] = useState('');
    return (
      <>
        <Button onClick={() => setOpen(true)}>{t('demo.importStudents')}</Button>
        <ImportDialog
          open={open}
          onOpenChange={setOpen}
          title={t('demo.importStudents')}
          upload={fakeUpload('学生导入结果_40_0.xlsx')}
          templateUrl="#"
          canUpload={year !== '' && semester !== ''}
          blockedReason={t('errors:chooseYearFirst')}
          extra={
            <div className="grid grid-cols-2 gap-3">
              <Select aria-label={t('demo.year')} value={year} onValueChange={setYear} options={[{ value: '2025', label: '2025-2026' }, { value: '2024', label: '2024-2025' }]} />
              <Select
                aria-label={t('demo.semester')}
                value={semester}
                onValueChange={setSemester}
                options={[
                  { value: String(SEMESTER.autumn), label: t('demo.autumn') },
                  { value: String(SEMESTER.spring), label: t('demo.spring') },
                ]}
              />
            </div>
          }
        />
      </>
    );
  },
};

/** The server refuses the file: a toast with its message, back to choosing. */
export const UploadFails: Story = {
  render: function Render() {
    const { t } = useTranslation('components');
    const [open, setOpen] = useState(true);
    return (
      <ImportDialog
        open={open}
        onOpenChange={setOpen}
        title={t('demo.importStudents')}
        upload={() => new Promise((_, reject) => setTimeout(() => reject(new Error(t('demo.templateMismatch'))), 1500))}
      />
    );
  },
};
