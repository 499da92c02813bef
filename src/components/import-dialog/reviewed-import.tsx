import { useState, type ReactNode } from 'react';
import { Upload } from 'lucide-react';
import type { ToolbarAction } from '@/components/list/list-screen';
import { del, download, post, saveFile, upload, type Params } from '@/lib/api-client';
import type { JobKind } from '@/domain/jobs';
import { UPDATE_EXISTING_FIELD } from '@/domain/people/import-updates';
import { ImportDialog, type ImportPreview } from './import-dialog';

/** A dry run as the server answers it: the preview plus the id its commit names. */
export interface KeptPreview extends ImportPreview {
  importId: string;
}

export interface ReviewedImportOptions<P extends KeptPreview> {
  /** The page's API base: `GET /import/template`, `POST /import/preview`, `POST /import/:id/commit`, `DELETE /import/:id`, `GET /export`. */
  base: string;
  title: ReactNode;
  description?: ReactNode;
  /** Form fields sent with the file (before it), e.g. the school year and semester. */
  fields?: Record<string, string>;
  extra?: ReactNode;
  canUpload?: boolean;
  blockedReason?: ReactNode;
  details?(preview: P): ReactNode;
  /** After a commit, e.g. to refetch the list. */
  onImported?(): void;
  /** The commit runs as this kind of job (docs/product-rules.md#jobs): the dialog follows it. */
  jobKind?: JobKind;
  /** Offers 更新已存在的数据 (off at each opening) and sends it as the `updateExisting` field (docs/product-rules.md#import-updates). */
  updatable?: boolean;
}

/**
 * Import with a dry run and export for a list screen (docs/product-rules.md#people-import): spread `listProps` on the
 * `ListScreen` (its import toolbar button and export) and render `dialog` beside it.
 */
export function useReviewedImport<P extends KeptPreview>(o: ReviewedImportOptions<P>) {
  const [open, setOpenState] = useState(false);
  const [updateExisting, setUpdateExisting] = useState(false);
  // The option is off again at every opening: updating existing records is a choice made for one file.
  const setOpen = (next: boolean) => {
    if (next) setUpdateExisting(false);
    setOpenState(next);
  };
  const toolbar: ToolbarAction<unknown>[] = [{ action: 'import', icon: <Upload aria-hidden />, onClick: () => setOpen(true) }];
  const dialog = (
    <ImportDialog<P>
      open={open}
      onOpenChange={setOpen}
      title={o.title}
      description={o.description}
      extra={o.extra}
      canUpload={o.canUpload}
      blockedReason={o.blockedReason}
      updateExisting={o.updatable ? { checked: updateExisting, onChange: setUpdateExisting } : undefined}
      onDownloadTemplate={() => void download(`${o.base}/import/template`).then((f) => saveFile(f, 'template.xlsx'))}
      onImported={() => o.onImported?.()}
      jobKind={o.jobKind}
      review={{
        preview: (file, onProgress) => {
          const form = new FormData();
          for (const [k, v] of Object.entries(o.fields ?? {})) form.append(k, v);
          if (o.updatable) form.append(UPDATE_EXISTING_FIELD, String(updateExisting));
          form.append('file', file, file.name);
          return upload<P>(`${o.base}/import/preview`, form, onProgress);
        },
        commit: async (p) => {
          const url = `${o.base}/import/${encodeURIComponent(p.importId)}/commit`;
          return o.jobKind ? { jobId: (await post<{ id: string }>(url)).id } : download(url, undefined, 'post');
        },
        cancel: (p) => void del(`${o.base}/import/${encodeURIComponent(p.importId)}`).catch(() => undefined),
        details: o.details,
      }}
    />
  );
  return {
    listProps: {
      toolbar,
      onExport: async (filters: Params) => saveFile(await download(`${o.base}/export`, filters), 'export.xlsx'),
    },
    dialog,
  };
}
