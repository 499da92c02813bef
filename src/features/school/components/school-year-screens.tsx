import { useMemo } from 'react';
import { ArrowUpFromLine } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { schoolYearListQuery, schoolYearSaveSchema, defaultSchoolYear, SEMESTER_KEYS } from '@/domain/school/school-years';
import type { SchoolYearDetail } from '@/domain/school/types';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { DateField, FieldGroup, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { schoolYears } from '../api';
import type { SchoolFamily } from '@/domain/menus/access';

const col = createDataTableColumnHelper<SchoolYearDetail>();

/** org/acayear: the school years with their semesters; add, edit, delete (docs/product-rules.md#school-years). */
export function SchoolYearListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('school');
  const navigate = useNavigate();
  const key = `${family}.org.acayear`;
  const access = usePageAccess(key);
  const api = schoolYears(family);
  const state = useListState<{ startYear?: string }>(['startYear']);
  const query = api.useList(state.query);
  const remove = api.useDelete();

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('academicYear', {
          header: t('year.academicYear'),
          cell: ({ row }) => (
            <span className="flex items-center gap-2 font-medium">
              {row.original.academicYear}
              {row.original.current ? <Badge variant="secondary">{t('year.current')}</Badge> : null}
            </span>
          ),
        }),
        ...SEMESTER_KEYS.map((k) =>
          col.display({
            id: k,
            header: t(`year.${k}`),
            cell: ({ row }) => {
              const s = row.original.semesters.find((x) => x.code === (k === 'autumn' ? 13 : 11));
              return s ? (
                <span className="tabular-nums whitespace-nowrap">
                  {s.startDate} ~ {s.endDate}
                  {s.current ? <Badge className="ml-2">{t('year.currentSemester')}</Badge> : null}
                </span>
              ) : (
                '—'
              );
            },
          }),
        ),
        col.display({
          id: 'breaks',
          header: t('year.breaks'),
          cell: ({ row }) =>
            row.original.semesters
              .filter((s) => s.breakStart)
              .map((s) => `${t(s.code === 13 ? 'year.winter' : 'year.summer')} ${s.breakStart} ~ ${s.breakEnd}`)
              .join('；'),
        }),
        rowActionsColumn<SchoolYearDetail>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('year.deleteTitle', { name: r.academicYear }), description: t('year.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, navigate, access.paths, remove],
  );

  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={schoolYearListQuery}
      filters={[]}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      toolbar={access.buttons.rollover ? [{ action: 'rollover', icon: <ArrowUpFromLine aria-hidden />, onClick: () => void navigate(access.paths.route('rollover', '')) }] : []}
      data-testid="school-year-list"
    />
  );
}

/** org/acayear/add and edit/:id. */
export function SchoolYearFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('school');
  const { id } = useParams();
  const access = usePageAccess(`${family}.org.acayear`);
  // A new year follows the newest one (or starts this year): the usual next step, with dates already consistent.
  const newest = schoolYears(family).useList({ current: 1, size: 10 }, { enabled: !id });
  if (!id && newest.isPending) return null;
  const latest = newest.data?.records[0]?.startYear;
  const nextYear = latest ? latest + 1 : new Date().getFullYear();
  return (
    <FormScreen
      schema={schoolYearSaveSchema}
      resource={schoolYears(family)}
      id={id}
      defaults={defaultSchoolYear(nextYear)}
      toValues={(r) => {
        const of = (code: number) => {
          const s = r.semesters.find((x) => x.code === code);
          return { startDate: s?.startDate ?? '', endDate: s?.endDate ?? '', breakStart: s?.breakStart ?? '', breakEnd: s?.breakEnd ?? '' };
        };
        return { academicYear: r.academicYear, autumn: of(13), spring: of(11), version: r.version };
      }}
      title={id ? t('year.editTitle') : t('year.addTitle')}
      description={t('year.formHint')}
      backTo={access.paths.list}
      data-testid="school-year-form"
    >
      {() => (
        <>
          <FieldGroup>
            <TextField name="academicYear" label={t('year.academicYear')} required placeholder="2026-2027" />
          </FieldGroup>
          {SEMESTER_KEYS.map((k) => (
            <FieldGroup key={k} title={t(`year.${k}`)} className="md:grid-cols-4">
              <DateField name={`${k}.startDate`} label={t('year.startDate')} required />
              <DateField name={`${k}.endDate`} label={t('year.endDate')} required />
              <DateField name={`${k}.breakStart`} label={t(k === 'autumn' ? 'year.winterStart' : 'year.summerStart')} />
              <DateField name={`${k}.breakEnd`} label={t(k === 'autumn' ? 'year.winterEnd' : 'year.summerEnd')} />
            </FieldGroup>
          ))}
        </>
      )}
    </FormScreen>
  );
}
