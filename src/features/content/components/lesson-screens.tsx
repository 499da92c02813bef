import { useMemo } from 'react';
import { BookCopy, Copy, Library, Paperclip, Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import {
  LESSON_ATTACHMENTS_MAX,
  LESSON_GRADES,
  lessonResourceListQuery,
  lessonResourceSaveSchema,
  libraryListQuery,
  type LessonResourceForm,
  type LessonResourceRow,
  type LibraryRow,
} from '@/domain/content/lesson-resources';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FieldGroup, SelectField, TextareaField, TextField, UploadField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef, type ListView } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { toast } from '@/lib/toast';
import { lessonKey, lessonResources, libraryCoverUrl, useCopyFromLibrary, useLibrary, type LessonFamily } from '../api';
import { FileThumb } from './file-thumb';
import { formatDateTime } from '@/lib/date-time';
import { gradeNameKey } from '@/domain/school/grade-name';

type Filters = { title?: string; grade?: string; topic?: string };
const col = createDataTableColumnHelper<LessonResourceRow>();
const libCol = createDataTableColumnHelper<LibraryRow>();

function useGradeOptions() {
  const { t } = useTranslation();
  return LESSON_GRADES.map((g) => ({ value: String(g), label: t(gradeNameKey(g)) }));
}

/** What a resource carries besides its text: video and attachments. */
function Extras({ video, attachments }: { video: boolean; attachments: number }) {
  const { t } = useTranslation('content');
  return (
    <span className="flex items-center gap-3 text-muted-foreground">
      {video ? (
        <span className="flex items-center gap-1" title={t('lesson.video')}>
          <Video aria-hidden className="size-4" />
          <span className="sr-only">{t('lesson.video')}</span>
        </span>
      ) : null}
      {attachments > 0 ? (
        <span className="flex items-center gap-1" title={t('lesson.attachments')}>
          <Paperclip aria-hidden className="size-4" />
          {attachments}
        </span>
      ) : null}
    </span>
  );
}

/**
 * lessonAssistant/lessonResourceList (a school: its own resources, and the library of the management organisations
 * above it to browse and copy) and lessonAssistant/resourceList (a management organisation: the library it publishes)
 * (docs/product-rules.md#lesson-resources).
 */
export function LessonResourceListScreen({ family }: { family: LessonFamily }) {
  const { t, i18n } = useTranslation('content');
  const navigate = useNavigate();
  const key = lessonKey(family);
  const access = usePageAccess(key);
  const api = lessonResources(family);
  const state = useListState<Filters>(['title', 'grade', 'topic'], { views: family === 'k12' ? ['own', 'library'] : ['own'] });
  const inLibrary = state.view === 'library';
  const own = api.useList(state.query, { enabled: !inLibrary });
  const library = useLibrary(state.query, inLibrary);
  const remove = api.useDelete();
  const copy = useCopyFromLibrary();
  const grades = useGradeOptions();
  const gradeLabel = (g: number) => grades.find((o) => o.value === String(g))?.label ?? String(g);

  const views: ListView[] =
    family === 'k12'
      ? [
          { value: 'own', label: t('lesson.ownView'), icon: <BookCopy aria-hidden /> },
          { value: 'library', label: t('lesson.libraryView'), icon: <Library aria-hidden />, hint: t('lesson.libraryHint') },
        ]
      : [];
  const filters: FilterDef<Filters>[] = [
    { name: 'title', type: 'text', label: t('lesson.title'), placeholder: t('lesson.titlePlaceholder') },
    { name: 'grade', type: 'select', label: t('lesson.grade'), options: grades },
    ...(inLibrary ? [] : [{ name: 'topic' as const, type: 'text' as const, label: t('lesson.topic'), placeholder: t('lesson.topicPlaceholder') }]),
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.display({ id: 'cover', header: t('lesson.cover'), cell: ({ row }) => <FileThumb fileId={row.original.coverFileId} alt={row.original.title} className="h-10 w-14" /> }),
        col.accessor('title', {
          header: t('lesson.title'),
          cell: ({ row }) => (
            <span className="flex items-center gap-2">
              <span className="max-w-72 truncate font-medium">{row.original.title}</span>
              {row.original.copiedFromId ? <Badge variant="outline">{t('lesson.fromLibrary')}</Badge> : null}
            </span>
          ),
        }),
        col.accessor('grade', { header: t('lesson.grade'), cell: ({ getValue }) => gradeLabel(getValue()) }),
        col.accessor('topic', { header: t('lesson.topic') }),
        col.display({ id: 'extras', header: t('lesson.extras'), cell: ({ row }) => <Extras video={Boolean(row.original.videoFileId)} attachments={row.original.attachmentFileIds.length} /> }),
        col.accessor('updatedAt', { header: t('lesson.updatedAt'), cell: ({ getValue }) => <span className="whitespace-nowrap">{formatDateTime(getValue(), i18n.language)}</span> }),
        rowActionsColumn<LessonResourceRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('lesson.deleteTitle', { name: r.title }), description: t(family === 'admin' ? 'lesson.deleteLibraryText' : 'lesson.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- gradeLabel reads `grades`, which follows the language
    [t, i18n.language, key, family, navigate, access.paths, remove, grades],
  );

  const libraryColumns = useMemo(
    () =>
      libCol.columns([
        libCol.display({
          id: 'cover',
          header: t('lesson.cover'),
          cell: ({ row }) => <FileThumb url={row.original.hasCover ? libraryCoverUrl(row.original.id) : null} alt={row.original.title} className="h-10 w-14" />,
        }),
        libCol.accessor('title', { header: t('lesson.title'), cell: ({ getValue }) => <span className="max-w-72 truncate font-medium">{getValue()}</span> }),
        libCol.accessor('grade', { header: t('lesson.grade'), cell: ({ getValue }) => gradeLabel(getValue()) }),
        libCol.accessor('topic', { header: t('lesson.topic') }),
        libCol.accessor('orgName', { header: t('lesson.publisher') }),
        libCol.display({ id: 'extras', header: t('lesson.extras'), cell: ({ row }) => <Extras video={row.original.hasVideo} attachments={row.original.attachmentCount} /> }),
        libCol.accessor('copyId', {
          header: t('lesson.copyState'),
          cell: ({ getValue }) => (getValue() ? <Badge variant="success">{t('lesson.copied')}</Badge> : <span className="text-muted-foreground">{t('lesson.notCopied')}</span>),
        }),
        rowActionsColumn<LibraryRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            {
              action: 'add',
              label: t('lesson.copy'),
              icon: <Copy aria-hidden />,
              hidden: (r) => r.copyId !== null,
              onClick: async (r) => {
                await copy.mutateAsync(r.id);
                toast.success(t('lesson.copiedToast', { name: r.title }));
              },
              testId: 'lesson-copy',
            },
          ],
        }),
      ]),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- gradeLabel reads `grades`
    [t, key, copy, grades],
  );

  if (inLibrary) {
    return (
      <ListScreen
        pageKey={key}
        state={state}
        views={views}
        querySchema={libraryListQuery}
        filters={filters}
        query={library}
        columns={libraryColumns}
        rowKey="id"
        data-testid="lesson-library"
      />
    );
  }
  return (
    <ListScreen
      pageKey={key}
      state={state}
      views={views}
      description={family === 'admin' ? t('lesson.publishHint') : undefined}
      querySchema={lessonResourceListQuery}
      filters={filters}
      query={own}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="lesson-list"
    />
  );
}

/** lessonAssistant/lessonResourceList|resourceList add and edit/:id. */
export function LessonResourceFormScreen({ family }: { family: LessonFamily }) {
  const { t } = useTranslation('content');
  const { id } = useParams();
  const access = usePageAccess(lessonKey(family));
  const grades = useGradeOptions();
  const defaults: LessonResourceForm = { title: '', grade: '', topic: '', coverFileId: null, videoFileId: null, attachmentFileIds: [], description: '' };
  return (
    <FormScreen
      schema={lessonResourceSaveSchema}
      resource={lessonResources(family)}
      id={id}
      defaults={defaults}
      toValues={(r) => ({
        title: r.title,
        grade: String(r.grade),
        topic: r.topic,
        coverFileId: r.coverFileId,
        videoFileId: r.videoFileId,
        attachmentFileIds: r.attachmentFileIds,
        description: r.description ?? '',
        version: r.version,
      })}
      title={id ? t('lesson.editTitle') : t('lesson.addTitle')}
      description={family === 'admin' ? t('lesson.publishHint') : undefined}
      backTo={access.paths.list}
      data-testid="lesson-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="title" label={t('lesson.title')} required placeholder={t('lesson.titlePlaceholder')} />
          <SelectField name="grade" label={t('lesson.grade')} required options={grades} />
          <TextField name="topic" label={t('lesson.topic')} required placeholder={t('lesson.topicPlaceholder')} />
          <UploadField name="coverFileId" label={t('lesson.cover')} purpose="lessonCover" maxCount={1} description={t('lesson.coverHint')} />
          <UploadField name="videoFileId" label={t('lesson.video')} purpose="lessonVideo" maxCount={1} description={t('lesson.videoHint')} />
          <UploadField name="attachmentFileIds" label={t('lesson.attachments')} purpose="attachment" maxCount={LESSON_ATTACHMENTS_MAX} />
          <TextareaField name="description" label={t('lesson.description')} className="md:col-span-2" rows={4} />
        </FieldGroup>
      )}
    </FormScreen>
  );
}
