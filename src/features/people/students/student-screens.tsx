import type { SchoolFamily } from '@/domain/menus/access';
import { useMemo, useState } from 'react';
import { ArrowRightLeft, Plus } from 'lucide-react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { STUDENT_STATUS_TABLE, studentListQuery, studentSaveSchema, studentTransferSchema, type StudentDetail, type StudentForm, type StudentRecord } from '@/domain/people/students';
import { GENDER_TABLE } from '@/domain/people/staff';
import { PARENT_RELATION_TABLE, PARENT_RELATIONS } from '@/domain/people/parents';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { DictionaryField } from '@/components/form/dictionary-field';
import { DateField, FieldGroup, RadioField, SelectField, TextField, UploadField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import type { ActionDialogProps, PageActions } from '@/components/list/page-actions';
import { deleteAction, editAction, type RowAction } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { LinkedRecordRow, RemoveButton } from '@/components/picker/linked-record-row';
import { SearchPicker, type PickerOption } from '@/components/picker/search-picker';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { Button } from '@/components/ui/button';
import type { SelectOption } from '@/components/ui/select';
import { facePhotosAction, PersonName } from '../photos/face-photos-dialog';
import { searchParents, studentResource, useStudentOptions, useTransfer } from './api';
import { usePeopleImport } from '../import/people-import';
import { useAppAccountActions } from '../app-account-actions';
import { gradeNameKey } from '@/domain/school/grade-name';

type Filters = { keyword?: string; gradeId?: string; classId?: string; status?: string };
const col = createDataTableColumnHelper<StudentRecord>();

/** Choices of the student screens, translated: grades, classes, statuses, genders (relations and ethnicities: DictionaryField). */
function useChoices(family: SchoolFamily) {
  const { t } = useTranslation(['people', 'school']);
  const options = useStudentOptions(family);
  return useMemo(() => {
    const gradeLabel = (g: { gradeNo: number; enrolYear: number; stage: string }) =>
      g.stage === 'university' ? t('school:grade.cohort', { year: g.enrolYear }) : t('school:grade.named', { grade: t(gradeNameKey(g.gradeNo)), year: g.enrolYear });
    return {
      grades: (options.data?.grades ?? []).map((g) => ({ value: g.id, label: gradeLabel(g) })),
      classes: (options.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name })),
      statuses: enumOptions(STUDENT_STATUS_TABLE, t),
      genders: enumOptions(GENDER_TABLE, t),
    };
  }, [t, options.data]);
}

/** user/student: the students with filters (keyword, grade, class, status), add, edit, transfer, delete. */
export function StudentListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('people');
  const navigate = useNavigate();
  const key = `${family}.user.student`;
  const access = usePageAccess(key);
  const api = studentResource(family);
  const choices = useChoices(family);
  const state = useListState<Filters>(['keyword', 'gradeId', 'classId', 'status']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  // Transfer: a row's student or the selected ones, to one class (a form in a dialog).
  const actions: PageActions<StudentRecord> = {
    transfer: {
      button: 'edit',
      where: 'both',
      label: t('students.transfer'),
      toolbarLabel: t('students.transferSelected'),
      icon: <ArrowRightLeft aria-hidden />,
      testId: 'row-transfer',
      dialog: (p) => <TransferDialog family={family} classes={choices.classes} {...p} />,
    },
  };
  const io = usePeopleImport(key, 'student', () => void query.refetch());
  const app = useAppAccountActions<StudentRecord>(api, (r) => r.regNo);

  const filters: FilterDef<Filters>[] = [
    { name: 'keyword', type: 'text', label: t('students.keyword'), placeholder: t('students.keywordPlaceholder'), className: 'w-56' },
    { name: 'gradeId', type: 'select', label: t('students.grade'), options: choices.grades, className: 'w-48' },
    { name: 'classId', type: 'select', label: t('students.className'), options: choices.classes },
    { name: 'status', type: 'select', label: t('students.status'), options: choices.statuses, className: 'w-32' },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('students.name'), cell: ({ row, getValue }) => <PersonName name={getValue()} photoFileId={row.original.photoFileId} /> }),
        // Numbers and class names stay on one line; long names and parent lists wrap.
        col.accessor('regNo', { header: t('students.regNo'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
        col.accessor('studentNo', { header: t('students.studentNo') }),
        col.accessor('className', { header: t('students.className'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
        col.accessor('gender', { header: t('students.gender'), cell: ({ getValue }) => enumLabel(GENDER_TABLE, getValue(), t) }),
        col.accessor('status', {
          header: t('students.status'),
          cell: ({ getValue }) => <EnumBadge table={STUDENT_STATUS_TABLE} value={getValue()} />,
        }),
        ...(family === 'k12'
          ? [
              col.accessor('parents', {
                header: t('students.parents'),
                cell: ({ getValue }) =>
                  getValue()
                    .map((p) => t('students.parentLine', { name: p.name, relation: enumLabel(PARENT_RELATION_TABLE, p.relation, t) }))
                    .join(t('students.separator')),
              }),
            ]
          : []),
        col.display({ id: 'appAccount', header: t('appAccount.column'), cell: ({ row }) => app.cell(row.original) }),
      ]),
    [t, family, app],
  );
  // Edit and transfer stay buttons; the app account's actions and delete go in the "more" menu.
  const rowButtons = useMemo<(RowAction<StudentRecord> | string)[]>(
    () => [
      editAction((r) => void navigate(access.paths.edit!(r.id))),
      'transfer',
      ...app.actions,
      deleteAction((r) => ({ title: t('students.deleteTitle', { name: r.name }), description: t('students.deleteText') }), (r) => remove.mutateAsync(r.id)),
    ],
    [t, navigate, access.paths, remove, app.actions],
  );

  return (
    <>
      <ListScreen
        pageKey={key}
        state={state}
        querySchema={studentListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        selectable
        onAdd={() => void navigate(access.paths.add!)}
        toolbar={['transfer', ...io.listProps.toolbar, facePhotosAction('student', key)]}
        actions={actions}
        rowButtons={rowButtons}
        onExport={io.listProps.onExport}
        exportLayout="list"
        data-testid="student-list"
      />
      {io.dialog}
      {app.dialogs}
    </>
  );
}

/** Moves the chosen students to one class; a refusal stays in the dialog. */
function TransferDialog({ family, rows: students, classes, open, onOpenChange }: { family: SchoolFamily; classes: SelectOption[] } & ActionDialogProps<StudentRecord>) {
  const { t } = useTranslation(['people', 'ui', 'validation']);
  const transfer = useTransfer(family);
  const who = students.map((s) => t('students.studentLine', { name: s.name, className: s.className })).join(t('students.separator'));
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={studentTransferSchema}
      defaults={{ studentIds: students.map((s) => s.id), classId: '' }}
      title={t('students.transferTitle', { count: students.length })}
      description={t('students.transferHint')}
      submit={(body) => transfer.mutateAsync(body)}
      success={({ moved }) => t('students.transferDone', { count: moved })}
      submitText={t('students.transfer')}
      submitTestId="transfer-confirm"
      data-testid="student-transfer-dialog"
    >
      {() => (
        <>
          <p className="text-sm text-muted-foreground">{who}</p>
          <SelectField name="classId" label={t('students.transferTo')} options={classes} clearable={false} />
        </>
      )}
    </FormDialog>
  );
}

/** The student's parents: linked ones with their relation, and new ones entered here (saved with the student). */
function ParentsSection({ family, known }: { family: SchoolFamily; known: StudentRecord['parents'] }) {
  const { t } = useTranslation('people');
  const choices = useChoices(family);
  const { control } = useFormContext<StudentForm>();
  const linked = useFieldArray({ control, name: 'parents' });
  const added = useFieldArray({ control, name: 'newParents' });
  const values = useWatch({ control, name: 'parents' }) ?? [];
  // Names of the linked parents: from the record, then from what the picker chose.
  const [names, setNames] = useState<Map<string, PickerOption>>(() => new Map(known.map((p) => [p.parentId, { id: p.parentId, name: p.name, hint: p.mobile }])));
  const pick = (o: PickerOption) => {
    setNames((m) => new Map(m).set(o.id, o));
    linked.append({ parentId: o.id, relation: 'guardian' });
  };
  return (
    <fieldset className="grid gap-4" data-testid="student-parents">
      <legend className="mb-2 text-sm font-medium">{t('students.parentsGroup')}</legend>
      {linked.fields.length === 0 && added.fields.length === 0 ? <p className="text-sm text-muted-foreground">{t('students.noParents')}</p> : null}
      {linked.fields.map((f, i) => {
        const p = names.get(values[i]?.parentId ?? '');
        return (
          <LinkedRecordRow key={f.id} record={p} removeLabel={t('students.removeParent', { name: p?.name ?? '' })} onRemove={() => linked.remove(i)} data-testid="linked-parent">
            <DictionaryField name={`parents.${i}.relation`} label={t('students.relation')} required dictionary="parentRelation" />
          </LinkedRecordRow>
        );
      })}
      {added.fields.map((f, i) => (
        <div key={f.id} className="grid items-start gap-4 rounded-md border border-dashed p-3 md:grid-cols-[1fr_1fr_1fr_1fr_auto]" data-testid="new-parent">
          <TextField name={`newParents.${i}.name`} label={t('students.parentName')} required maxLength={30} />
          <RadioField name={`newParents.${i}.gender`} label={t('students.parentGender')} required options={choices.genders} />
          <TextField name={`newParents.${i}.mobile`} label={t('students.mobile')} required type="tel" inputMode="numeric" maxLength={11} />
          <DictionaryField name={`newParents.${i}.relation`} label={t('students.relation')} required dictionary="parentRelation" />
          <RemoveButton label={t('students.removeNewParent')} onClick={() => added.remove(i)} />
        </div>
      ))}
      <div className="flex flex-wrap items-center gap-2">
        <div className="w-full max-w-sm">
          <SearchPicker
          queryKey={studentResource(family).key}
          search={searchParents(family)}
          onPick={pick}
          exclude={new Set(values.map((v) => v.parentId))}
          label={t('students.linkParent')}
          placeholder={t('students.linkParentPlaceholder')}
          data-testid="parent-picker"
          />
        </div>
        <Button type="button" variant="outline" onClick={() => added.append({ name: '', gender: 'female', mobile: '', relation: 'mother' })} data-testid="add-new-parent">
          <Plus aria-hidden />
          {t('students.addParent')}
        </Button>
      </div>
    </fieldset>
  );
}

/** A timestamp as the local calendar day, YYYY-MM-DD. */
function day(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The classes the student has been in, newest first. */
function ClassHistory({ history }: { history: StudentDetail['history'] }) {
  const { t } = useTranslation('people');
  return (
    <section className="grid gap-2" aria-labelledby="student-history-title" data-testid="student-history">
      <h2 id="student-history-title" className="text-sm font-medium">
        {t('students.history')}
      </h2>
      {history.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('students.historyEmpty')}</p>
      ) : (
        <table className="w-full max-w-2xl text-sm">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th className="py-1 font-normal">{t('students.historyClass')}</th>
              <th className="py-1 font-normal">{t('students.historyReason')}</th>
              <th className="py-1 font-normal">{t('students.historySince')}</th>
              <th className="py-1 font-normal">{t('students.historyUntil')}</th>
            </tr>
          </thead>
          <tbody>
            {history.map((h) => (
              <tr key={`${h.classId}-${h.since}`} className="border-t">
                <td className="py-1.5">{h.className}</td>
                <td className="py-1.5">{t(`students.reasons.${h.reason}`, { defaultValue: h.reason })}</td>
                <td className="py-1.5">{day(h.since)}</td>
                <td className="py-1.5">{h.until ? day(h.until) : t('students.historyNow')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const defaults: StudentForm = {
  name: '',
  regNo: '',
  studentNo: '',
  classId: '',
  gender: '' as StudentForm['gender'],
  birthDate: '',
  ethnicity: '01',
  status: 'studying',
  photoFileId: null,
  parents: [],
  newParents: [],
};

/** user/student/add and edit/:id. */
export function StudentFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('people');
  const { id } = useParams();
  const access = usePageAccess(`${family}.user.student`);
  const api = studentResource(family);
  const record = api.useGet(id);
  const choices = useChoices(family);
  return (
    <FormScreen
      schema={studentSaveSchema}
      resource={api}
      id={id}
      defaults={defaults}
      toValues={(r) => ({
        name: r.name,
        regNo: r.regNo,
        studentNo: r.studentNo ?? '',
        classId: r.classId,
        gender: r.gender,
        birthDate: r.birthDate ?? '',
        ethnicity: r.ethnicity,
        status: r.status,
        photoFileId: r.photoFileId,
        parents: r.parents.map((p) => ({ parentId: p.parentId, relation: p.relation as (typeof PARENT_RELATIONS)[number] })),
        newParents: [],
        version: r.version,
      })}
      title={id ? t('students.editTitle') : t('students.addTitle')}
      description={t('students.formHint')}
      backTo={access.paths.list}
      data-testid="student-form"
    >
      {() => (
        <>
          <FieldGroup title={t('students.basics')}>
            <TextField name="name" label={t('students.name')} required />
            <TextField name="regNo" label={t('students.regNo')} required />
            <TextField name="studentNo" label={t('students.studentNo')} />
            <SelectField name="classId" label={t('students.className')} required options={choices.classes} />
            <RadioField name="gender" label={t('students.gender')} required options={choices.genders} />
            <DateField name="birthDate" label={t('students.birthDate')} />
            <DictionaryField name="ethnicity" label={t('students.ethnicity')} required clearable={false} dictionary="nation" />
            <SelectField name="status" label={t('students.status')} required clearable={false} options={choices.statuses} />
            <UploadField name="photoFileId" label={t('students.photo')} purpose="face" />
          </FieldGroup>
          {/* Parents are a K12 matter: universities have no parent screen. */}
          {family === 'k12' ? <ParentsSection family={family} known={record.data?.parents ?? []} /> : null}
          {id && record.data ? <ClassHistory history={record.data.history} /> : null}
        </>
      )}
    </FormScreen>
  );
}
