import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { OK_MSG } from '@/domain/errors';
import type { Family } from '@/domain/menus/access';
import { pageApi } from '@/domain/menus/access';
import { IDLE_TIMEOUT_MINUTES, SESSION_LIFETIME_HOURS, EXPORT_APPROVAL_ROWS, PASSWORD_CLASS_MAX, securitySettingsSaveSchema, type SecuritySettingsAnswer, type SecuritySettingsForm, type SecuritySettingsSave } from '@/domain/security/settings';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/domain/constants';
import { CustomField, FieldGroup, FormSchema, TextField } from '@/components/form/fields';
import { Form, FormControl } from '@/components/form/form';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { ApiError, get, put } from '@/lib/api-client';
import { toast } from '@/lib/toast';

const toForm = (s: SecuritySettingsAnswer): SecuritySettingsForm => ({
  ...s,
  passwordMinLength: String(s.passwordMinLength),
  passwordClasses: String(s.passwordClasses),
  idleTimeoutMinutes: String(s.idleTimeoutMinutes),
  sessionLifetimeHours: String(s.sessionLifetimeHours),
  exportApprovalRows: String(s.exportApprovalRows),
});

/**
 * system.security: the organisation's security settings (docs/product-rules.md#sign-in-security) — password policy,
 * two-factor sign-in for its administrators, session limits, and the data-protection switches other screens read.
 * One record per organisation: the form keeps the version it read, so a stale save is refused (409) and says so.
 */
export function SecuritySettingsScreen({ family }: { family: Family }) {
  const { t } = useTranslation('security');
  const key = `${family}.system.security`;
  const access = usePageAccess(key);
  const url = pageApi(key);
  const query = useQuery({ queryKey: ['security-settings', family], queryFn: () => get<SecuritySettingsAnswer>(url) });
  return (
    <div data-testid="security-settings" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader title={t('settings.title')} description={t('settings.description')} className="pb-0" />
      <QueryState query={query} data={query.data}>
        {(s) => <SettingsForm key={s.version} url={url} family={family} initial={toForm(s)} canEdit={access.can('edit')} defaults={s.version === 0} />}
      </QueryState>
    </div>
  );
}

function SettingsForm({ url, family, initial, canEdit, defaults }: { url: string; family: Family; initial: SecuritySettingsForm; canEdit: boolean; defaults: boolean }) {
  const { t } = useTranslation(['security', 'components', 'common']);
  const client = useQueryClient();
  const form = useForm<SecuritySettingsForm, unknown, SecuritySettingsSave>({ resolver: zodResolver(securitySettingsSaveSchema), defaultValues: initial });
  useEffect(() => form.reset(initial), [form, initial]);
  const save = useMutation({ mutationFn: (body: SecuritySettingsSave) => put<SecuritySettingsAnswer>(url, body), meta: { silent: true } });

  const submit = async (body: SecuritySettingsSave) => {
    try {
      const saved = await save.mutateAsync(body);
      client.setQueryData(['security-settings', family], saved);
      toast.success(t(OK_MSG.saved));
    } catch (error) {
      toast.warning(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <Form {...(form as unknown as UseFormReturn<FieldValues>)}>
      <FormSchema value={securitySettingsSaveSchema}>
        <form onSubmit={form.handleSubmit(submit)} noValidate>
          <Card>
            <CardContent className="grid gap-8">
              {defaults ? <p className="text-sm text-muted-foreground">{t('settings.defaults')}</p> : null}
              <FieldGroup title={t('settings.passwordGroup')}>
                <TextField name="passwordMinLength" label={t('settings.passwordMinLength')} required inputMode="numeric" disabled={!canEdit} description={t('settings.range', { min: PASSWORD_MIN, max: PASSWORD_MAX })} />
                <TextField name="passwordClasses" label={t('settings.passwordClasses')} required inputMode="numeric" disabled={!canEdit} description={t('settings.classesHint', { max: PASSWORD_CLASS_MAX })} />
              </FieldGroup>
              <FieldGroup title={t('settings.signInGroup')}>
                <Toggle name="totpRequiredForAdministrators" label={t('settings.totpRequired')} description={t('settings.totpRequiredHint')} disabled={!canEdit} />
                <div />
                <TextField name="idleTimeoutMinutes" label={t('settings.idleTimeout')} required inputMode="numeric" disabled={!canEdit} description={t('settings.range', IDLE_TIMEOUT_MINUTES)} />
                <TextField name="sessionLifetimeHours" label={t('settings.sessionLifetime')} required inputMode="numeric" disabled={!canEdit} description={t('settings.range', SESSION_LIFETIME_HOURS)} />
              </FieldGroup>
              <FieldGroup title={t('settings.dataGroup')}>
                <Toggle name="watermark" label={t('settings.watermark')} description={t('settings.watermarkHint')} disabled={!canEdit} />
                <Toggle name="maskStudentNames" label={t('settings.maskStudentNames')} description={t('settings.maskStudentNamesHint')} disabled={!canEdit} />
                <TextField name="exportApprovalRows" label={t('settings.exportApprovalRows')} required inputMode="numeric" disabled={!canEdit} description={t('settings.range', EXPORT_APPROVAL_ROWS)} />
              </FieldGroup>
            </CardContent>
            {canEdit ? (
              <CardFooter className="justify-end gap-2 border-t pt-6">
                <Button type="button" variant="outline" onClick={() => form.reset(initial)} disabled={!form.formState.isDirty}>
                  {t('settings.undo')}
                </Button>
                <Button type="submit" loading={save.isPending} data-testid="form-save">
                  {t('components:form.save')}
                </Button>
              </CardFooter>
            ) : null}
          </Card>
        </form>
      </FormSchema>
    </Form>
  );
}

/** A yes/no setting as a switch in the kit's field frame. */
function Toggle({ name, label, description, disabled }: { name: string; label: string; description: string; disabled: boolean }) {
  return (
    <CustomField
      name={name}
      label={label}
      description={description}
      testId={`field-${name}`}
      render={(field) => (
        <FormControl>
          <Switch checked={Boolean(field.value)} onCheckedChange={field.onChange} disabled={disabled} data-testid={`switch-${name}`} />
        </FormControl>
      )}
    />
  );
}
