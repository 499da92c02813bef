import type { SchoolFamily } from '@/domain/menus/access';
import { useState } from 'react';
import { Upload } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ImportDialog } from '@/components/import-dialog/import-dialog';
import type { ToolbarAction } from '@/components/list/list-screen';
import { download, saveFile, uploadForFile, type Params } from '@/lib/api-client';
import { meets } from '../api';

/**
 * Import and export of a meet's sign-up workbook (docs/product-rules.md#meets): the toolbar's import button, the list's
 * export and the import dialog (all or nothing, the failures workbook names each refused row).
 */
export function useSignUpImport<Row>(family: SchoolFamily, meetId: string, onImported: () => void) {
  const { t } = useTranslation('meets');
  const [open, setOpen] = useState(false);
  const base = `${meets(family).base}/${meetId}/entries`;
  const toolbar: ToolbarAction<Row> = { action: 'import', icon: <Upload aria-hidden />, onClick: () => setOpen(true) };
  const onExport = async (filters: Params) => saveFile(await download(`${base}/export`, filters), 'export.xlsx');
  const dialog = (
    <ImportDialog
      open={open}
      onOpenChange={setOpen}
      title={t('entry.importTitle')}
      description={t('entry.importDescription')}
      upload={(file, onProgress) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return uploadForFile(`${base}/import`, form, onProgress);
      }}
      onDownloadTemplate={() => void download(`${base}/import/template`).then((f) => saveFile(f, 'template.xlsx'))}
      onImported={onImported}
    />
  );
  return { toolbar, onExport, dialog };
}
