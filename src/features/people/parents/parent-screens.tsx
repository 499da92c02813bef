import { useMemo, useState } from 'react';
import { useFieldArray, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { PARENT_RELATION_TABLE, parentListQuery, parentSaveSchema, type ParentForm, type ParentRecord } from '@/domain/people/parents';
import { GENDER_TABLE } from '@/domain/people/staff';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { DictionaryField } from '@/components/form/dictionary-field';
import { FieldGroup, RadioField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { LinkedRecordRow } from '@/components/picker/linked-record-row';
import { SearchPicker, type PickerOption } from '@/components/picker/search-picker';
import { useAppAccountActions } from '../app-account-actions';
import { parentResource, searchChildren } from './api';

const KEY = 'k12.user.parent';
type Filters = { keyword?: string; studentKeyword?: string };
const col = createDataTableColumnHelper<ParentRecord>();

/** user/parent: parents with their children; filters by the parent and by a child; edit, delete. */
export function ParentListScreen() {
  const { t } = useTranslation('people');
  const navigate = useNavigate();
  const access = usePageAccess(KEY);
  const state = useListState<Filters>(['keyword', 'studentKeyword']);
  const query = parentResource.useList(state.query);
  const remove = parentResource.useDelete();
  const app = useAppAccountActions<ParentRecord>(parentResource, (r) => r.mobile);

  const filters: FilterDef<Filters>[] = [
    { name: 'keyword', type: 'text', label: t('parents.keyword'), placeholder: t('parents.keywordPlaceholder'), className: 'w-56' },
    { name: 'studentKeyword', type: 'text', label: t('parents.studentKeyword'), placeholder: t('parents.studentKeywordPlaceholder'), className: 'w-64' },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('parents.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('gender', { header: t('parents.gender'), cell: ({ getValue }) => enumLabel(GENDER_TABLE, getValue(), t) }),
        col.accessor('mobile', { header: t('parents.mobile') }),
        col.accessor('children', {
          header: t('parents.children'),
          cell: ({ getValue }) =>
            getValue()
              .map((c) => t('parents.childLine', { name: c.name, className: c.className, relation: enumLabel(PARENT_RELATION_TABLE, c.relation, t) }))
              .join(t('students.separator')),
        }),
        col.display({ id: 'appAccount', header: t('appAccount.column'), cell: ({ row }) => app.cell(row.original) }),
        rowActionsColumn<ParentRecord>({
          pageKey: KEY,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            ...app.actions,
            deleteAction((r) => ({ title: t('parents.deleteTitle', { name: r.name }), description: t('parents.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove, app],
  );

  return (
    <>
      <ListScreen
        pageKey={KEY}
        state={state}
        querySchema={parentListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onExport={(f) => parentResource.exportList(f)}
        exportLayout="list"
        data-testid="parent-list"
      />
      {app.dialogs}
    </>
  );
}

/** The parent's children: a student picker and the relation to each. */
function ChildrenField({ known }: { known: ParentRecord['children'] }) {
  const { t } = useTranslation('people');
  const { control } = useFormContext<ParentForm>();
  const children = useFieldArray({ control, name: 'children' });
  const values = useWatch({ control, name: 'children' }) ?? [];
  const { errors } = useFormState({ control, name: 'children' });
  const [names, setNames] = useState<Map<string, PickerOption>>(() => new Map(known.map((c) => [c.studentId, { id: c.studentId, name: c.name, hint: `${c.className} · ${c.regNo}` }])));
  // The array's own message (no child at all) sits on the array, not on an item.
  const message = errors.children?.message ?? errors.children?.root?.message;
  return (
    <fieldset className="grid gap-3" data-testid="parent-children" aria-describedby={message ? 'parent-children-error' : undefined}>
      <legend className="mb-2 text-sm font-medium">
        {t('parents.children')}
        <span aria-hidden className="ml-0.5 text-destructive">
          *
        </span>
      </legend>
      {children.fields.map((f, i) => {
        const c = names.get(values[i]?.studentId ?? '');
        return (
          <LinkedRecordRow key={f.id} record={c} removeLabel={t('parents.removeChild', { name: c?.name ?? '' })} onRemove={() => children.remove(i)} data-testid="parent-child">
            <DictionaryField name={`children.${i}.relation`} label={t('parents.relation')} required dictionary="parentRelation" />
          </LinkedRecordRow>
        );
      })}
      <div className="max-w-sm">
        <SearchPicker
          queryKey={parentResource.key}
          search={searchChildren}
          onPick={(o) => {
            setNames((m) => new Map(m).set(o.id, o));
            children.append({ studentId: o.id, relation: values[0]?.relation ?? 'guardian' });
          }}
          exclude={new Set(values.map((v) => v.studentId))}
          label={t('parents.children')}
          placeholder={t('parents.childrenPlaceholder')}
          data-testid="child-picker"
        />
      </div>
      {message ? (
        <p id="parent-children-error" role="alert" className="text-sm text-destructive">
          {t(message)}
        </p>
      ) : null}
    </fieldset>
  );
}

/** user/parent/edit/:id. */
export function ParentFormScreen() {
  const { t } = useTranslation('people');
  const { id } = useParams();
  const access = usePageAccess(KEY);
  const record = parentResource.useGet(id);
  const genders = enumOptions(GENDER_TABLE, t);
  return (
    <FormScreen
      schema={parentSaveSchema}
      resource={parentResource}
      id={id}
      defaults={{ name: '', gender: 'female', mobile: '', children: [] }}
      toValues={(r) => ({ name: r.name, gender: r.gender, mobile: r.mobile, children: r.children.map((c) => ({ studentId: c.studentId, relation: c.relation })), version: r.version })}
      title={t('parents.editTitle')}
      description={t('parents.formHint')}
      backTo={access.paths.list}
      data-testid="parent-form"
    >
      {() => (
        <>
          <FieldGroup>
            <TextField name="name" label={t('parents.name')} required />
            <RadioField name="gender" label={t('parents.gender')} required options={genders} />
            <TextField name="mobile" label={t('parents.mobile')} required type="tel" inputMode="numeric" maxLength={11} />
          </FieldGroup>
          <ChildrenField known={record.data?.children ?? []} />
        </>
      )}
    </FormScreen>
  );
}
