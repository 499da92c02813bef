import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { Family } from '@/domain/menus/access';
import { currentOrgSaveSchema, type CurrentOrg, type CurrentOrgForm } from '@/domain/org-manage/current-org';
import { filePaths } from '@/domain/uploads/stored-file';
import { FieldGroup, TextField, UploadField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { getUInfo } from '@/lib/uinfo';
import { saveUInfo } from '@/lib/store';
import { currentOrgResource, useCurrentOrg } from '../api';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="min-w-0 break-words">{children ?? '—'}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-3">
      <h2 className="text-base font-semibold">{title}</h2>
      <dl className="grid gap-4 md:grid-cols-3">{children}</dl>
    </section>
  );
}

const image = (id: string | null, alt: string) =>
  id ? <img src={filePaths.publicThumbnail(id)} alt={alt} className="h-16 w-auto rounded border object-contain" /> : null;

/** currentOrg: the signed-in organisation (docs/product-rules.md#own-organisation), with an edit button. */
export function CurrentOrgScreen({ family }: { family: Family }) {
  const { t } = useTranslation('orgManage');
  const navigate = useNavigate();
  const access = usePageAccess(`${family}.org.currentOrg`);
  const query = useCurrentOrg(family);
  return (
    <div data-testid="current-org" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={t('currentOrg.title')}
        actions={
          access.can('edit') && query.data ? (
            <Button onClick={() => void navigate(access.paths.edit!(query.data.id))} data-testid="current-org-edit">
              <Pencil aria-hidden />
              {t('currentOrg.edit')}
            </Button>
          ) : null
        }
      />
      <QueryState query={query} data={query.data}>
        {(o: CurrentOrg) => (
          <Card>
            <CardContent className="grid gap-8">
              <Section title={t('currentOrg.basic')}>
                <Item label={t('currentOrg.name')}>{o.name}</Item>
                <Item label={t('currentOrg.code')}>{o.code}</Item>
                <Item label={t('currentOrg.type')}>{t(`type.${o.type}`)}</Item>
                <Item label={t('currentOrg.superior')}>{o.parentName ?? t('currentOrg.none')}</Item>
                <Item label={t('currentOrg.academicSystemYears')}>{o.academicSystemYears}</Item>
              </Section>
              <Section title={t('currentOrg.branding')}>
                <Item label={t('currentOrg.platformTitle')}>{o.title}</Item>
                <Item label={t('currentOrg.filingNumber')}>{o.filingNumber}</Item>
                <Item label={t('currentOrg.icon')}>{image(o.iconFileId, t('currentOrg.icon'))}</Item>
                <Item label={t('currentOrg.loginImg')}>{image(o.loginImgFileId, t('currentOrg.loginImg'))}</Item>
              </Section>
              <Section title={t('currentOrg.location')}>
                <Item label={t('currentOrg.latitude')}>{o.latitude}</Item>
                <Item label={t('currentOrg.longitude')}>{o.longitude}</Item>
              </Section>
              <Section title={t('currentOrg.security')}>
                <Item label={t('currentOrg.managementPassword')}>
                  {o.hasManagementPassword ? t('currentOrg.managementPasswordSet') : t('currentOrg.managementPasswordUnset')}
                </Item>
                <Item label={t('currentOrg.deviceActivationCode')}>{o.deviceActivationCode}</Item>
                <Item label={t('currentOrg.activatableDevices')}>{o.activatableDevices}</Item>
                <Item label={t('currentOrg.activatedDevices')}>{o.activatedDevices}</Item>
              </Section>
            </CardContent>
          </Card>
        )}
      </QueryState>
    </div>
  );
}

/** currentOrg/edit/:orgId. Branding applies at once: the header's user info and the login screen's info are reloaded. */
export function CurrentOrgFormScreen({ family }: { family: Family }) {
  const { t } = useTranslation('orgManage');
  const { orgId } = useParams();
  const access = usePageAccess(`${family}.org.currentOrg`);
  const client = useQueryClient();
  const toValues = (o: CurrentOrg): CurrentOrgForm => ({
    name: o.name,
    code: o.code,
    title: o.title ?? '',
    iconFileId: o.iconFileId,
    loginImgFileId: o.loginImgFileId,
    filingNumber: o.filingNumber ?? '',
    latitude: o.latitude ?? '',
    longitude: o.longitude ?? '',
    academicSystemYears: o.academicSystemYears ?? '',
    managementPassword: '',
    deviceActivationCode: o.deviceActivationCode ?? '',
    activatableDevices: o.activatableDevices,
    version: o.version,
  });
  return (
    <FormScreen
      schema={currentOrgSaveSchema}
      resource={currentOrgResource(family)}
      id={orgId}
      defaults={{} as CurrentOrgForm}
      toValues={toValues}
      title={t('currentOrg.editTitle')}
      description={t('currentOrg.formHint')}
      backTo={access.paths.list}
      onSaved={async () => {
        await client.invalidateQueries({ queryKey: ['tenantOrg'] });
        saveUInfo(await getUInfo());
      }}
      data-testid="current-org-form"
    >
      {() => (
        <>
          <FieldGroup title={t('currentOrg.basic')}>
            <TextField name="name" label={t('currentOrg.name')} required />
            <TextField name="code" label={t('currentOrg.code')} required inputMode="numeric" placeholder="01" />
            <TextField name="academicSystemYears" label={t('currentOrg.academicSystemYears')} type="number" inputMode="numeric" />
          </FieldGroup>
          <FieldGroup title={t('currentOrg.branding')}>
            <TextField name="title" label={t('currentOrg.platformTitle')} />
            <TextField name="filingNumber" label={t('currentOrg.filingNumber')} />
            <UploadField name="iconFileId" label={t('currentOrg.icon')} purpose="branding" />
            <UploadField name="loginImgFileId" label={t('currentOrg.loginImg')} purpose="branding" />
          </FieldGroup>
          <FieldGroup title={t('currentOrg.location')}>
            <TextField name="latitude" label={t('currentOrg.latitude')} type="number" inputMode="decimal" />
            <TextField name="longitude" label={t('currentOrg.longitude')} type="number" inputMode="decimal" />
          </FieldGroup>
          <FieldGroup title={t('currentOrg.security')}>
            <TextField name="managementPassword" label={t('currentOrg.managementPassword')} type="password" description={t('currentOrg.managementPasswordHint')} />
            <TextField name="deviceActivationCode" label={t('currentOrg.deviceActivationCode')} />
            <TextField name="activatableDevices" label={t('currentOrg.activatableDevices')} required type="number" inputMode="numeric" />
          </FieldGroup>
        </>
      )}
    </FormScreen>
  );
}
