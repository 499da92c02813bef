import { useMemo, useState } from 'react';
import { KeyRound, Power, PowerOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { newPasswordSchema } from '@/domain/auth/schemas';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/domain/constants';
import { userCreateSchema, userListQuery, userUpdateSchema, type UserCreate, type UserForm, type UserRow, type UserUpdate } from '@/domain/users/users';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FieldGroup, RadioField, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { useReviewedImport } from '@/components/import-dialog/reviewed-import';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/toast';
import type { Resource } from '@/lib/resource';
import { users, useUserOptions, useUserWrites } from '../api';

const KEY = 'admin.user.user';
const RESET_MODES = ['generate', 'set'] as const;
type Filters = { keyword?: string; roleId?: string; enabled?: string };
const col = createDataTableColumnHelper<UserRow>();

/** user: the management organisation's own accounts (docs/product-rules.md#users). */
export function UserListScreen() {
  const { t } = useTranslation('orgManage');
  const navigate = useNavigate();
  const access = usePageAccess(KEY);
  const options = useUserOptions();
  const state = useListState<Filters>(['keyword', 'roleId', 'enabled']);
  const query = users.useList(state.query);
  const remove = users.useDelete();
  const writes = useUserWrites();
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const io = useReviewedImport({ base: users.base, title: t('people:import.title.user'), description: t('people:import.description.user'), onImported: () => void query.refetch() });

  const filters: FilterDef<Filters>[] = [
    { name: 'keyword', type: 'text', label: t('user.keyword'), placeholder: t('user.keywordPlaceholder') },
    { name: 'roleId', type: 'select', label: t('user.role'), options: (options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name })) },
    {
      name: 'enabled',
      type: 'select',
      label: t('user.status'),
      options: [
        { value: 'true', label: t('orgs.enabled') },
        { value: 'false', label: t('orgs.disabled') },
      ],
    },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('user.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('accountNum', { header: t('user.accountNum') }),
        col.accessor('mobile', { header: t('user.mobile') }),
        col.accessor('roleName', { header: t('user.role') }),
        col.display({
          id: 'status',
          header: t('user.status'),
          cell: ({ row }) => (
            <span className="flex flex-wrap gap-1">
              <Badge variant={row.original.enabled ? 'default' : 'secondary'}>{t(row.original.enabled ? 'orgs.enabled' : 'orgs.disabled')}</Badge>
              {row.original.mustChangePassword ? <Badge variant="outline">{t('user.mustChange')}</Badge> : null}
            </span>
          ),
        }),
        rowActionsColumn<UserRow>({
          pageKey: KEY,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            { action: 'resetPassword', icon: <KeyRound aria-hidden />, onClick: (r) => setResetting(r), testId: 'user-reset-password' },
            {
              action: 'status',
              label: t('user.disable'),
              icon: <PowerOff aria-hidden />,
              destructive: true,
              hidden: (r) => !r.enabled,
              confirm: (r) => ({ title: t('user.disableTitle', { name: r.name }), description: t('user.disableText') }),
              onClick: (r) => writes.status.mutateAsync({ id: r.id, enabled: false }).then(() => undefined),
              testId: 'user-disable',
            },
            {
              action: 'status',
              label: t('user.enable'),
              icon: <Power aria-hidden />,
              hidden: (r) => r.enabled,
              onClick: (r) => writes.status.mutateAsync({ id: r.id, enabled: true }).then(() => undefined),
              testId: 'user-enable',
            },
            deleteAction((r) => ({ title: t('user.deleteTitle', { name: r.name }), description: t('user.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove, writes.status],
  );

  return (
    <>
      <ListScreen
        pageKey={KEY}
        state={state}
        querySchema={userListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        {...io.listProps}
        data-testid="user-list"
      />
      {io.dialog}
      {resetting ? <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} /> : null}
    </>
  );
}

/**
 * Reset: generate a one-time password (shown here once, to pass on) or set one; either way the person must change it
 * at the next sign-in.
 */
function ResetPasswordDialog({ user, onClose }: { user: UserRow; onClose(): void }) {
  const { t } = useTranslation('orgManage');
  const { reset } = useUserWrites();
  const [mode, setMode] = useState<'generate' | 'set'>('generate');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);

  const submit = async () => {
    if (mode === 'set') {
      const checked = newPasswordSchema.safeParse(password);
      if (!checked.success) {
        setError(t(checked.error.issues[0].message, { min: PASSWORD_MIN, max: PASSWORD_MAX }));
        return;
      }
    }
    try {
      const result = await reset.mutateAsync(mode === 'set' ? { id: user.id, mode, password } : { id: user.id, mode });
      toast.success(t('user.resetDone', { name: user.name }));
      if (result.password) setShown(result.password);
      else onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="user-reset-dialog">
        <DialogHeader>
          <DialogTitle>{t('user.resetTitle', { name: user.name })}</DialogTitle>
          <DialogDescription>{t('user.resetText')}</DialogDescription>
        </DialogHeader>
        {shown ? (
          <div className="grid gap-2">
            <p className="text-sm">{t('user.oneTimeShown')}</p>
            <output data-testid="user-one-time-password" className="rounded-md border bg-muted px-3 py-2 font-mono text-lg tracking-wider select-all">
              {shown}
            </output>
          </div>
        ) : (
          <div className="grid gap-3">
            <div role="radiogroup" aria-label={t('user.resetMode')} className="grid gap-2">
              {RESET_MODES.map((m) => (
                <label key={m} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="reset-mode" value={m} checked={mode === m} onChange={() => setMode(m)} data-testid={`reset-mode-${m}`} className="accent-primary" />
                  {t(`user.mode.${m}`)}
                </label>
              ))}
            </div>
            {mode === 'set' ? (
              <div className="grid gap-1.5">
                <Label htmlFor="reset-password">{t('user.newPassword')}</Label>
                <Input
                  id="reset-password"
                  type="password"
                  autoComplete="new-password"
                  maxLength={PASSWORD_MAX}
                  value={password}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? 'reset-password-error' : undefined}
                  onChange={(e) => {
                    setPassword(e.target.value);
                    setError(null);
                  }}
                  data-testid="reset-password-input"
                />
              </div>
            ) : null}
            {error ? (
              <p id="reset-password-error" role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
          </div>
        )}
        <DialogFooter>
          {shown ? (
            <Button onClick={onClose} data-testid="user-reset-close">
              {t('user.shownDone')}
            </Button>
          ) : (
            <>
              <Button variant="outline" onClick={onClose}>
                {t('common:action.cancel')}
              </Button>
              <Button loading={reset.isPending} onClick={() => void submit()} data-testid="user-reset-confirm">
                {t('common:action.confirm')}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** user/add and user/edit/:id: name, login account, mobile, role, status; a new account's first password. */
export function UserFormScreen() {
  const { t } = useTranslation('orgManage');
  const { id } = useParams();
  const access = usePageAccess(KEY);
  const options = useUserOptions();
  const defaults: UserForm = { name: '', accountNum: '', mobile: '', roleId: '', enabled: 'true', password: '' };
  const fields = (
    <FieldGroup>
      <TextField name="name" label={t('user.name')} required />
      <TextField name="accountNum" label={t('user.accountNum')} required description={t('user.accountRule')} />
      <TextField name="mobile" label={t('user.mobile')} type="tel" />
      <SelectField name="roleId" label={t('user.role')} required options={(options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))} />
      <RadioField
        name="enabled"
        label={t('user.status')}
        required
        options={[
          { value: 'true', label: t('orgs.enabled') },
          { value: 'false', label: t('orgs.disabled') },
        ]}
      />
      {id ? null : (
        <TextField name="password" label={t('user.firstPassword')} required type="password" description={t('user.firstPasswordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })} />
      )}
    </FieldGroup>
  );
  if (id) {
    return (
      <FormScreen
        schema={userUpdateSchema}
        resource={users as unknown as Resource<UserRow, UserUpdate>}
        id={id}
        defaults={defaults}
        toValues={(r) => ({ name: r.name, accountNum: r.accountNum, mobile: r.mobile ?? '', roleId: r.roleId ?? '', enabled: String(r.enabled), version: r.version })}
        title={t('user.editTitle')}
        backTo={access.paths.list}
        data-testid="user-form"
      >
        {() => fields}
      </FormScreen>
    );
  }
  return (
    <FormScreen
      schema={userCreateSchema}
      resource={users as unknown as Resource<UserRow, UserCreate>}
      defaults={defaults}
      toValues={() => defaults}
      title={t('user.addTitle')}
      description={t('user.addHint')}
      backTo={access.paths.list}
      data-testid="user-form"
    >
      {() => fields}
    </FormScreen>
  );
}
