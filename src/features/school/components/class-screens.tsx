import { useMemo, useRef, useState } from 'react';
import { Upload } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { UPDATE_EXISTING_FIELD } from '@/domain/people/import-updates';
import type { ClassImportPreview } from '@/domain/school/class-import';
import { classListQuery, classSaveSchema, type ClassForm } from '@/domain/school/classes';
import type { ClassDetail, ClassFormOptions } from '@/domain/school/types';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FieldGroup, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ImportDialog } from '@/components/import-dialog/import-dialog';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { upload, uploadForFile } from '@/lib/api-client';
import { classes, useClassOptions } from '../api';
import { gradeNameKey } from '@/domain/school/grade-name';
import type { SchoolFamily } from '@/domain/menus/access';

type Filters = { gradeId?: string; name?: string; majorId?: string };
const col = createDataTableColumnHelper<ClassDetail>();

/** '三年级（2024级）' or '2023级': how a grade is named in lists and choices. */
function useGradeLabel() {
  const { t } = useTranslation('school');
  return (g: { gradeNo: number; enrolYear: number; stage: string }) =>
    g.stage === 'university' ? t('grade.cohort', { year: g.enrolYear }) : t('grade.named', { grade: t(gradeNameKey(g.gradeNo)), year: g.enrolYear });
}

/** org/class: the classes with filters by grade, name (and major); add, edit, delete (docs/product-rules.md#classes). */
export function ClassListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('school');
  const navigate = useNavigate();
  const key = `${family}.org.class`;
  const access = usePageAccess(key);
  const api = classes(family);
  const options = useClassOptions(family);
  const gradeLabel = useGradeLabel();
  const state = useListState<Filters>(family === 'gx' ? ['gradeId', 'majorId', 'name'] : ['gradeId', 'name']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const [importing, setImporting] = useState(false);
  // docs/product-rules.md#import-updates: off at every opening; the checked file is sent again by the commit (a class
  // workbook is small, and the import is all or nothing in one transaction).
  const [updateExisting, setUpdateExisting] = useState(false);
  const checkedFile = useRef<File | null>(null);
  const importForm = (file: File) => {
    const form = new FormData();
    form.append(UPDATE_EXISTING_FIELD, String(updateExisting));
    form.append('file', file, file.name);
    return form;
  };

  const filters: FilterDef<Filters>[] = [
    { name: 'gradeId', type: 'select', label: t('class.grade'), options: (options.data?.grades ?? []).map((g) => ({ value: g.id, label: gradeLabel(g) })) },
    ...(family === 'gx'
      ? [{ name: 'majorId', type: 'select', label: t('class.major'), options: (options.data?.majors ?? []).map((m) => ({ value: m.id, label: m.name })) } as const]
      : []),
    { name: 'name', type: 'text', label: t('class.name'), placeholder: t('class.namePlaceholder') },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('class.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('code', { header: t('class.code'), meta: { align: 'right' } }),
        col.display({ id: 'grade', header: t('class.grade'), cell: ({ row }) => gradeLabel(row.original) }),
        ...(family === 'gx' ? [col.accessor('majorName', { header: t('class.major') }), col.accessor('collegeName', { header: t('class.college') })] : []),
        col.accessor('classNo', { header: t('class.classNo') }),
        col.accessor('studentCount', { header: t('class.studentCount'), meta: { align: 'right' } }),
        col.accessor('headTeacherName', { header: t('class.headTeacher') }),
        col.accessor('peTeacherName', { header: t('class.peTeacher') }),
        rowActionsColumn<ClassDetail>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('class.deleteTitle', { name: r.name }), description: t('class.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, family, navigate, access.paths, remove, gradeLabel],
  );

  return (
    <>
      <ListScreen
        pageKey={key}
        state={state}
        querySchema={classListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        toolbar={[{ action: 'import', icon: <Upload aria-hidden />, onClick: () => (setUpdateExisting(false), setImporting(true)) }]}
        onExport={(f) => api.exportList(f)}
        exportLayout="fixed"
        data-testid="class-list"
      />
      {/* docs/product-rules.md#class-import */}
      <ImportDialog
        open={importing}
        onOpenChange={setImporting}
        title={t('import.title')}
        description={t('import.description')}
        updateExisting={{ checked: updateExisting, onChange: setUpdateExisting }}
        review={{
          preview: (file, onProgress) => {
            checkedFile.current = file;
            return upload<ClassImportPreview>(`${api.base}/import?dryRun=1`, importForm(file), onProgress);
          },
          commit: () => uploadForFile(`${api.base}/import`, importForm(checkedFile.current!)),
        }}
        onDownloadTemplate={() => void api.downloadTemplate()}
        onImported={() => void query.refetch()}
      />
    </>
  );
}

function classFields(family: SchoolFamily, t: (k: string) => string, options: ClassFormOptions | undefined, gradeLabel: ReturnType<typeof useGradeLabel>) {
  const teachers = (options?.teachers ?? []).map((x) => ({ value: x.id, label: x.workNo ? `${x.name}（${x.workNo}）` : x.name }));
  return (
    <FieldGroup>
      <SelectField name="gradeId" label={t('class.grade')} required options={(options?.grades ?? []).map((g) => ({ value: g.id, label: gradeLabel(g) }))} />
      {family === 'gx' ? (
        <SelectField name="majorId" label={t('class.major')} required options={(options?.majors ?? []).map((m) => ({ value: m.id, label: `${m.collegeName} / ${m.name}` }))} />
      ) : null}
      <TextField name="code" label={t('class.code')} required type="number" inputMode="numeric" placeholder="1-99" />
      <TextField name="name" label={t('class.name')} required />
      <TextField name="classNo" label={t('class.classNo')} />
      <SelectField name="headTeacherId" label={t('class.headTeacher')} options={teachers} />
      <SelectField name="peTeacherId" label={t('class.peTeacher')} options={teachers} />
    </FieldGroup>
  );
}

/** org/class/add and edit/:classId. */
export function ClassFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('school');
  const { classId } = useParams();
  const access = usePageAccess(`${family}.org.class`);
  const options = useClassOptions(family);
  const gradeLabel = useGradeLabel();
  const defaults: ClassForm = { gradeId: '', code: '' as unknown as number, name: '', classNo: '', headTeacherId: '', peTeacherId: '', majorId: '' };
  return (
    <FormScreen
      schema={classSaveSchema}
      resource={classes(family)}
      id={classId}
      defaults={defaults}
      toValues={(r) => ({
        gradeId: r.gradeId,
        code: r.code,
        name: r.name,
        classNo: r.classNo ?? '',
        headTeacherId: r.headTeacherId ?? '',
        peTeacherId: r.peTeacherId ?? '',
        majorId: r.majorId ?? '',
        version: r.version,
      })}
      title={classId ? t('class.editTitle') : t('class.addTitle')}
      description={t('class.formHint')}
      backTo={access.paths.list}
      data-testid="class-form"
    >
      {() => classFields(family, t, options.data, gradeLabel)}
    </FormScreen>
  );
}
