import { useMemo, useState, type ReactNode } from 'react';
import { Download, Eye, Plus, Power, PowerOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ORG_TYPE } from '@/domain/constants';
import { localDate } from '@/domain/dates';
import { CHILD_ORG_TYPES, orgCreateSchema, orgUpdateSchema, type OrgDetail, type OrgRow } from '@/domain/org-manage/orgs';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FieldGroup, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { editAction, rowActionsColumn } from '@/components/list/row-actions';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { treeFromFlat } from '@/components/tree/tree';
import { TreeTable, type TreeRow } from '@/components/tree/tree-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { exportOrgs, orgDetailResource, orgResource, useOrgStatus, useOrgTree } from '../api';

const KEY = 'admin.org.orgInfo';
const col = createDataTableColumnHelper<TreeRow<OrgRow>>();

/** orgManage/orgInfo: the organisations below the signed-in one (docs/product-rules.md#organisations). */
export function OrgListScreen() {
  const { t } = useTranslation('orgManage');
  const navigate = useNavigate();
  const access = usePageAccess(KEY);
  const [name, setName] = useState('');
  const [applied, setApplied] = useState('');
  const query = useOrgTree(applied);
  const status = useOrgStatus();
  const [enabling, setEnabling] = useState<OrgRow | null>(null);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('code', { header: t('orgs.code') }),
        col.display({ id: 'type', header: t('orgs.type'), cell: ({ row }) => t(`type.${row.original.type}`) }),
        col.display({
          id: 'status',
          header: t('orgs.status'),
          cell: ({ row }) => <Badge variant={row.original.enabled ? 'default' : 'secondary'}>{t(row.original.enabled ? 'orgs.enabled' : 'orgs.disabled')}</Badge>,
        }),
        col.accessor('activatableDevices', { header: t('orgs.activatableDevices'), meta: { align: 'right' } }),
        col.accessor('activatedDevices', { header: t('orgs.activatedDevices'), meta: { align: 'right' } }),
        rowActionsColumn<TreeRow<OrgRow>>({
          pageKey: KEY,
          header: t('components:list.actions'),
          actions: [
            { action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => void navigate(access.paths.detail!(r.id)), testId: 'org-detail' },
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            {
              action: 'status',
              label: t('orgs.disable'),
              icon: <PowerOff aria-hidden />,
              destructive: true,
              hidden: (r) => !r.enabled,
              confirm: (r) => ({ title: t('orgs.disableTitle', { name: r.name }), description: t('orgs.disableText') }),
              onClick: (r) => status.mutateAsync({ id: r.id, enabled: false }).then(() => undefined),
              testId: 'org-disable',
            },
            { action: 'status', label: t('orgs.enable'), icon: <Power aria-hidden />, hidden: (r) => r.enabled, onClick: (r) => setEnabling(r), testId: 'org-enable' },
          ],
        }),
      ]),
    [t, status, navigate, access.paths],
  );

  return (
    <div data-testid="org-list" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={t('orgs.title')}
        actions={
          <>
            {access.can('export') ? (
              <Button variant="outline" onClick={() => void exportOrgs(applied, t('orgs.exportName'))} data-testid="list-export">
                <Download aria-hidden />
                {t('menus:button.export')}
              </Button>
            ) : null}
            {access.can('add') ? (
              <Button onClick={() => void navigate(access.paths.add!)} data-testid="list-add">
                <Plus aria-hidden />
                {t('orgs.addTitle')}
              </Button>
            ) : null}
          </>
        }
      />
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(name.trim());
        }}
      >
        <Input className="max-w-xs" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} placeholder={t('orgs.namePlaceholder')} aria-label={t('orgs.name')} />
        <Button type="submit" variant="outline">
          {t('components:searchForm.search')}
        </Button>
      </form>
      <QueryState query={query} data={query.data}>
        {(rows) => <TreeTable rows={treeFromFlat(rows) as TreeRow<OrgRow>[]} label={{ header: t('orgs.name'), cell: (r) => <span className="font-medium">{r.name}</span> }} columns={columns} aria-label={t('orgs.title')} />}
      </QueryState>
      <ConfirmDialog
        open={enabling !== null}
        onOpenChange={(open) => !open && setEnabling(null)}
        title={t('orgs.enableTitle', { name: enabling?.name ?? '' })}
        description={
          <span className="grid gap-3">
            {t('orgs.enableText')}
            <Button
              variant="outline"
              className="justify-self-start"
              onClick={() => void status.mutateAsync({ id: enabling!.id, enabled: true, cascade: false }).then(() => setEnabling(null))}
              data-testid="org-enable-only"
            >
              {t('orgs.enableOnly')}
            </Button>
          </span>
        }
        confirmText={t('orgs.enableAll')}
        onConfirm={async () => {
          await status.mutateAsync({ id: enabling!.id, enabled: true, cascade: true });
        }}
      />
    </div>
  );
}

/** orgManage/orgInfo/add: a school with its administrator. */
export function OrgFormScreen() {
  const { t } = useTranslation('orgManage');
  const access = usePageAccess(KEY);
  return (
    <FormScreen
      schema={orgCreateSchema}
      resource={orgResource()}
      defaults={{ name: '', code: '', type: String(ORG_TYPE.k12), adminName: '', adminAccount: '', adminPassword: '' }}
      toValues={() => {
        throw new Error('organisations are created here, not edited');
      }}
      title={t('orgs.addTitle')}
      description={t('orgs.formHint')}
      backTo={access.paths.list}
      data-testid="org-form"
    >
      {() => (
        <>
          <FieldGroup title={t('currentOrg.basic')}>
            <TextField name="name" label={t('orgs.name')} required />
            <TextField name="code" label={t('orgs.code')} required inputMode="numeric" />
            <SelectField name="type" label={t('orgs.type')} required options={CHILD_ORG_TYPES.map((v) => ({ value: String(v), label: t(`type.${v}`) }))} />
          </FieldGroup>
          <FieldGroup title={t('orgs.admin')}>
            <TextField name="adminName" label={t('orgs.adminName')} required />
            <TextField name="adminAccount" label={t('orgs.adminAccount')} required />
            <TextField name="adminPassword" label={t('orgs.adminPassword')} required type="password" />
          </FieldGroup>
        </>
      )}
    </FormScreen>
  );
}

/** orgManage/orgInfo/edit/:orgId: a lower organisation's name, code and activatable devices (its type and administrator stay). */
export function OrgEditScreen() {
  const { t } = useTranslation('orgManage');
  const { orgId } = useParams();
  const access = usePageAccess(KEY);
  return (
    <FormScreen
      schema={orgUpdateSchema}
      resource={orgDetailResource()}
      id={orgId}
      defaults={{ name: '', code: '', activatableDevices: 0 }}
      toValues={(r) => ({ name: r.name, code: r.code, activatableDevices: r.activatableDevices, version: r.version })}
      title={t('orgs.editTitle')}
      description={t('orgs.editHint')}
      backTo={access.paths.list}
      data-testid="org-edit-form"
    >
      {() => (
        <FieldGroup title={t('currentOrg.basic')}>
          <TextField name="name" label={t('orgs.name')} required />
          <TextField name="code" label={t('orgs.code')} required inputMode="numeric" />
          <TextField name="activatableDevices" label={t('orgs.activatableDevices')} required type="number" inputMode="numeric" />
        </FieldGroup>
      )}
    </FormScreen>
  );
}

function Facts({ items }: { items: readonly [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-8 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
      {items.map(([label, value]) => (
        <div key={label} className="grid gap-1">
          <dt className="text-sm text-muted-foreground">{label}</dt>
          <dd className="font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** orgManage/orgInfo/detail/:orgId: read-only facts, the administrator account and what the organisation holds. */
export function OrgDetailScreen() {
  const { t } = useTranslation('orgManage');
  const { orgId } = useParams();
  const navigate = useNavigate();
  const access = usePageAccess(KEY);
  const query = orgDetailResource().useGet(orgId);
  return (
    <div data-testid="org-detail" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={t('orgs.detailTitle')}
        back={{ safe: true }}
        actions={
          access.can('edit') && orgId ? (
            <Button variant="outline" onClick={() => void navigate(access.paths.edit!(orgId))}>
              {t('menus:button.edit')}
            </Button>
          ) : null
        }
      />
      <QueryState query={query} data={query.data}>
        {(o: OrgDetail) => (
          <>
            <Card>
              <CardHeader>
                <CardTitle>{o.name}</CardTitle>
              </CardHeader>
              <CardContent>
                <Facts
                  items={[
                    [t('orgs.code'), o.code],
                    [t('orgs.type'), t(`type.${o.type}`)],
                    [t('orgs.superior'), o.parentName ?? t('currentOrg.none')],
                    [t('orgs.status'), <Badge key="s" variant={o.enabled ? 'default' : 'secondary'}>{t(o.enabled ? 'orgs.enabled' : 'orgs.disabled')}</Badge>],
                    [t('orgs.activatableDevices'), o.activatableDevices],
                    [t('orgs.activatedDevices'), o.activatedDevices],
                    [t('orgs.createdAt'), localDate(new Date(o.createdAt))],
                  ]}
                />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>{t('orgs.admin')}</CardTitle>
              </CardHeader>
              <CardContent>
                {o.admins.length === 0 ? (
                  <p className="text-muted-foreground">{t('orgs.noAdmin')}</p>
                ) : (
                  <ul className="grid gap-2" data-testid="org-admins">
                    {o.admins.map((a) => (
                      <li key={a.accountNum} className="flex flex-wrap items-center gap-x-4 gap-y-1">
                        <span className="font-medium">{a.name}</span>
                        <span className="text-muted-foreground">{t('orgs.accountLabel', { account: a.accountNum })}</span>
                        {a.mobile ? <span className="text-muted-foreground">{a.mobile}</span> : null}
                        {!a.enabled ? <Badge variant="secondary">{t('orgs.disabled')}</Badge> : null}
                      </li>
                    ))}
                  </ul>
                )}
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>{t('orgs.counts')}</CardTitle>
              </CardHeader>
              <CardContent>
                <Facts
                  items={[
                    [t('orgs.countStudents'), o.counts.students],
                    [t('orgs.countClasses'), o.counts.classes],
                    [t('orgs.countAccounts'), o.counts.accounts],
                    [t('orgs.countLowerOrgs'), o.counts.lowerOrgs],
                  ]}
                />
              </CardContent>
            </Card>
          </>
        )}
      </QueryState>
    </div>
  );
}
