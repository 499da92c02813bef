import { useTranslation } from 'react-i18next';
import { exportRequestCreateSchema } from '@/domain/data-access/data-access';
import { familyOfKey, pageApi } from '@/domain/menus/access';
import { FormDialog } from '@/components/form/form-dialog';
import { TextareaField } from '@/components/form/fields';
import { post } from '@/lib/api-client';

/** The export the server refused as too large (409, field `exportApproval`): its page and the query the list sent. */
export interface ExportApprovalAsk {
  message: string;
  query: Record<string, string>;
  /** The export's path as the refusal named it (a page with several exports, or one of a row: a contest's entries). */
  path?: string;
}

/**
 * The request of an export above the organisation's threshold (docs/product-rules.md#personal-data-access): the list's
 * filters and shown columns are kept with the reason; an administrator decides on 系统管理 › 导出审批, where the
 * requester follows it and downloads the approved file.
 */
export function ExportApprovalDialog({ pageKey, ask, onClose }: { pageKey: string; ask: ExportApprovalAsk | null; onClose(): void }) {
  const { t } = useTranslation('dataAccess');
  const family = familyOfKey(pageKey) ?? 'k12';
  return (
    <FormDialog
      open={ask !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      schema={exportRequestCreateSchema}
      defaults={{ screen: pageKey, path: ask?.path, query: ask?.query ?? {}, reason: '' }}
      title={t('exportApproval.request.title')}
      description={
        <>
          {ask?.message} {t('exportApproval.request.hint')}
        </>
      }
      submit={(values) => post(pageApi(`${family}.system.exportApproval`), values)}
      success={t('exportApproval.requested')}
      submitText={t('exportApproval.request.submit')}
      data-testid="export-approval-dialog"
    >
      {() => <TextareaField name="reason" label={t('exportApproval.request.reason')} required inputTestId="export-approval-reason" />}
    </FormDialog>
  );
}
