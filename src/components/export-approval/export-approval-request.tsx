import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { EXPORT_LINK_HOURS, exportRequestCreateSchema } from '@/domain/data-access/data-access';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { familyOfKey, pageAccess, pageApi } from '@/domain/menus/access';
import { FormDialog } from '@/components/form/form-dialog';
import { TextareaField } from '@/components/form/fields';
import { menuLabel } from '@/components/layout/menu-label';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { post } from '@/lib/api-client';
import { navigateTo } from '@/lib/api-navigator';
import { closeExportApproval, currentExportApproval, subscribeExportApproval, type ExportApprovalAsk } from '@/lib/export-approval';

/** Where every requester follows a request: the personal centre's 我的导出. */
const MY_EXPORTS = getCatalogEntry('personal.myInfo.exports')!.path;

/** The page an export is kept under, by its menu name; the key itself when the catalogue has no such page. */
function pageName(t: Parameters<typeof menuLabel>[0], key: string): string {
  try {
    return menuLabel(t, pageAccess(key).entry);
  } catch {
    return key;
  }
}

/**
 * The one request of an export above the organisation's threshold (docs/product-rules.md#personal-data-access),
 * drawn once by the signed-in shell: the API client opens it on the server's refusal (409, field `exportApproval`),
 * whichever screen started the export — a list, a detail page's button, a print dialog, a job — with the page, path
 * and query the refusal and the call named. The person gives a reason; once sent, it says where to follow the request
 * and download the approved file: 个人中心 › 我的导出 (every signed-in user has it; within 24 h of the approval), where
 * the decision's message in the message centre also leads.
 */
export function ExportApprovalRequest() {
  const { t } = useTranslation(['dataAccess', 'menus', 'ui']);
  const ask = useSyncExternalStore(subscribeExportApproval, currentExportApproval, currentExportApproval);
  const [sent, setSent] = useState<ExportApprovalAsk | null>(null);
  const family = ask ? (familyOfKey(ask.screen) ?? 'k12') : null;
  return (
    <>
      <FormDialog
        // A second refusal while the dialog is open starts a new form with its own export.
        key={ask ? `${ask.path}?${new URLSearchParams(ask.query).toString()}` : 'none'}
        open={ask !== null}
        onOpenChange={(open) => (open ? undefined : closeExportApproval())}
        schema={exportRequestCreateSchema}
        defaults={{ screen: ask?.screen ?? '', path: ask?.path, query: ask?.query ?? {}, reason: '' }}
        title={t('dataAccess:exportApproval.request.title')}
        description={
          ask ? (
            <>
              <span className="block font-medium text-foreground" data-testid="export-approval-page">
                {t('dataAccess:exportApproval.request.page', { page: pageName(t, ask.screen) })}
              </span>
              <span className="mt-1 block">{ask.message}</span>
              <span className="mt-1 block">{t('dataAccess:exportApproval.request.hint')}</span>
            </>
          ) : undefined
        }
        submit={(values) => post(pageApi(`${family ?? 'k12'}.system.exportApproval`), values)}
        success={false}
        onDone={() => setSent(ask)}
        submitText={t('dataAccess:exportApproval.request.submit')}
        data-testid="export-approval-dialog"
      >
        {() => <TextareaField name="reason" label={t('dataAccess:exportApproval.request.reason')} required rows={4} inputTestId="export-approval-reason" />}
      </FormDialog>
      <Dialog open={sent !== null} onOpenChange={(open) => (open ? undefined : setSent(null))}>
        <DialogContent className="sm:max-w-md" data-testid="export-approval-sent">
          <DialogHeader>
            <DialogTitle>{t('dataAccess:exportApproval.sent.title')}</DialogTitle>
            <DialogDescription>{t('dataAccess:exportApproval.sent.where', { hours: EXPORT_LINK_HOURS })}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setSent(null)} data-testid="export-approval-sent-close">
              {t('ui:close')}
            </Button>
            <Button
              type="button"
              onClick={() => {
                setSent(null);
                navigateTo(MY_EXPORTS);
              }}
              data-testid="export-approval-follow"
            >
              {t('dataAccess:exportApproval.request.mine')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
