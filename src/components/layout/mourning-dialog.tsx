import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { localDate } from '@/domain/dates';
import { isMourningActive, mourningSaveSchema, type MourningSetting } from '@/domain/shell/mourning';
import { CustomField, DateField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { FormControl } from '@/components/form/form';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { MOURNING_QUERY_KEY } from './use-mourning';

const URL = '/api/busi/web/shell/mourning';

/**
 * The platform operators' mourning-mode setting (docs/product-rules.md#mourning-mode), opened from the account menu
 * beside menu management: on/off and the dates; the save is audited on the server and refused when stale.
 */
export function MourningDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('layout');
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: [MOURNING_QUERY_KEY[0], 'mourningSetting'],
    queryFn: async () => {
      const { get } = await import('@/lib/api-client');
      return get<MourningSetting>(URL);
    },
    enabled: open,
    staleTime: 0,
  });
  if (open && !data) return <Spinner className="sr-only" />;
  const today = localDate(new Date());
  return (
    <FormDialog
      open={open && !!data}
      onOpenChange={onOpenChange}
      schema={mourningSaveSchema}
      defaults={{ enabled: data?.enabled ?? false, startDate: data?.startDate ?? today, endDate: data?.endDate ?? today, version: data?.version ?? 0 }}
      title={t('mourning.title')}
      description={t('mourning.description')}
      data-testid="mourning-dialog"
      submit={async (values) => {
        const { put } = await import('@/lib/api-client');
        return put<MourningSetting>(URL, values);
      }}
      onDone={(saved) => {
        queryClient.setQueryData([MOURNING_QUERY_KEY[0], 'mourningSetting'], saved);
        // The grey follows at once on this screen; the public read is cached by browsers for up to a minute elsewhere.
        queryClient.setQueryData(MOURNING_QUERY_KEY, { active: isMourningActive(saved, new Date()) });
      }}
    >
      {() => (
        <div className="grid gap-4">
          <CustomField
            name="enabled"
            label={t('mourning.enabled')}
            testId="mourning-enabled"
            render={(field) => (
              <FormControl>
                <Switch checked={field.value === true} onCheckedChange={(v) => field.onChange(v)} onBlur={field.onBlur} />
              </FormControl>
            )}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <DateField name="startDate" label={t('mourning.startDate')} required testId="mourning-start" />
            <DateField name="endDate" label={t('mourning.endDate')} required testId="mourning-end" />
          </div>
        </div>
      )}
    </FormDialog>
  );
}
