import type { SchoolFamily } from '@/domain/menus/access';
import { useMemo, useState } from 'react';
import { EyeOff, Send } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useWatch } from 'react-hook-form';
import { richTextLength } from '@/domain/content/rich-text';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { WIKI_CATEGORY_TABLE, WIKI_STATE_TABLE, WIKI_TEXT_MAX, wikiListQuery, wikiSaveSchema, type WikiForm, type WikiRow } from '@/domain/content/wiki';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { CustomField, FieldGroup, RadioField, SelectField, TextField, UploadField } from '@/components/form/fields';
import { FormControl } from '@/components/form/form';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { wiki, wikiKey, useWikiPublish } from '../api';
import { FileThumb } from './file-thumb';
import { RichTextEditor } from '@/components/rich-text/rich-text-editor';
import { RichTextView } from '@/components/rich-text/rich-text-view';
import { formatDateTime } from '@/lib/date-time';

type Filters = { title?: string; category?: string; state?: string };
const col = createDataTableColumnHelper<WikiRow>();

/** An entry as readers see it, in a dialog. */
function WikiPreview({ family, row, onClose }: { family: SchoolFamily; row: WikiRow; onClose(): void }) {
  const { t } = useTranslation('content');
  const one = wiki(family).useGet(row.id);
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-3xl" data-testid="wiki-preview">
        <DialogHeader>
          <DialogTitle>{row.title}</DialogTitle>
          <DialogDescription>{enumLabel(WIKI_CATEGORY_TABLE, row.category, t)}</DialogDescription>
        </DialogHeader>
        <QueryState query={one} data={one.data}>
          {(entry) => <RichTextView html={entry.content} />}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}

/** wikiManagement/schoolWiki: entries with filters by title, category and state; preview, add, edit, publish/unpublish, delete (docs/product-rules.md#wiki). */
export function WikiListScreen({ family }: { family: SchoolFamily }) {
  const { t, i18n } = useTranslation('content');
  const navigate = useNavigate();
  const key = wikiKey(family);
  const access = usePageAccess(key);
  const api = wiki(family);
  const state = useListState<Filters>(['title', 'category', 'state']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const publish = useWikiPublish(family);
  const [previewing, setPreviewing] = useState<WikiRow | null>(null);

  const filters: FilterDef<Filters>[] = [
    { name: 'title', type: 'text', label: t('wiki.title'), placeholder: t('wiki.titlePlaceholder') },
    { name: 'category', type: 'select', label: t('wiki.category'), options: enumOptions(WIKI_CATEGORY_TABLE, t) },
    { name: 'state', type: 'select', label: t('wiki.state'), options: enumOptions(WIKI_STATE_TABLE, t) },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.display({ id: 'cover', header: t('wiki.cover'), cell: ({ row }) => <FileThumb fileId={row.original.coverFileId} alt={row.original.title} /> }),
        col.accessor('title', {
          header: t('wiki.title'),
          cell: ({ row }) => (
            <button type="button" className="max-w-80 truncate text-left font-medium text-primary hover:underline" onClick={() => setPreviewing(row.original)} data-testid="wiki-open">
              {row.original.title}
            </button>
          ),
        }),
        col.accessor('category', { header: t('wiki.category'), cell: ({ getValue }) => enumLabel(WIKI_CATEGORY_TABLE, getValue(), t) }),
        col.accessor('published', {
          header: t('wiki.state'),
          cell: ({ getValue }) => <EnumBadge table={WIKI_STATE_TABLE} value={getValue() ? 'published' : 'draft'} />,
        }),
        col.accessor('textLength', { header: t('wiki.textLength'), meta: { align: 'right' } }),
        col.accessor('updatedAt', {
          header: t('wiki.updatedAt'),
          cell: ({ row }) => (
            <span className="whitespace-nowrap">
              {formatDateTime(row.original.updatedAt, i18n.language)}
              {row.original.updatedByName ? <span className="ml-1 text-muted-foreground">{row.original.updatedByName}</span> : null}
            </span>
          ),
        }),
        rowActionsColumn<WikiRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            {
              action: 'edit',
              label: t('wiki.publish'),
              icon: <Send aria-hidden />,
              hidden: (r) => r.published,
              onClick: (r) => void publish.mutateAsync({ row: r, published: true }),
              testId: 'wiki-publish',
            },
            {
              action: 'edit',
              label: t('wiki.unpublish'),
              icon: <EyeOff aria-hidden />,
              hidden: (r) => !r.published,
              confirm: (r) => ({ title: t('wiki.unpublishTitle', { name: r.title }), description: t('wiki.unpublishText') }),
              onClick: (r) => publish.mutateAsync({ row: r, published: false }).then(() => undefined),
              testId: 'wiki-unpublish',
            },
            deleteAction((r) => ({ title: t('wiki.deleteTitle', { name: r.title }), description: t('wiki.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, i18n.language, key, navigate, access.paths, remove, publish],
  );

  return (
    <>
      <ListScreen
        pageKey={key}
        state={state}
        querySchema={wikiListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        data-testid="wiki-list"
      />
      {previewing ? <WikiPreview family={family} row={previewing} onClose={() => setPreviewing(null)} /> : null}
    </>
  );
}

/** The count under the editor: visible characters against the limit. */
function TextCount() {
  const { t } = useTranslation('content');
  const html = useWatch({ name: 'content' }) as string | undefined;
  const n = richTextLength(html ?? '');
  return <span className={n > WIKI_TEXT_MAX ? 'text-destructive' : undefined}>{t('wiki.count', { count: n, max: WIKI_TEXT_MAX })}</span>;
}

/** wikiManagement/schoolWiki/add and edit/:id. */
export function WikiFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('content');
  const { id } = useParams();
  const access = usePageAccess(wikiKey(family));
  const defaults: WikiForm = { title: '', category: '' as WikiForm['category'], coverFileId: null, content: '', published: 'false' };
  return (
    <FormScreen
      schema={wikiSaveSchema}
      resource={wiki(family)}
      id={id}
      defaults={defaults}
      toValues={(r) => ({ title: r.title, category: r.category, coverFileId: r.coverFileId, content: r.content, published: r.published ? 'true' : 'false', version: r.version })}
      title={id ? t('wiki.editTitle') : t('wiki.addTitle')}
      backTo={access.paths.list}
      data-testid="wiki-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="title" label={t('wiki.title')} required placeholder={t('wiki.titlePlaceholder')} />
          <SelectField name="category" label={t('wiki.category')} required options={enumOptions(WIKI_CATEGORY_TABLE, t)} />
          <UploadField name="coverFileId" label={t('wiki.cover')} purpose="cover" maxCount={1} description={t('wiki.coverHint')} />
          <RadioField
            name="published"
            label={t('wiki.state')}
            options={[
              { value: 'false', label: t('wiki.states.draft') },
              { value: 'true', label: t('wiki.states.published') },
            ]}
          />
          <CustomField
            name="content"
            label={t('wiki.content')}
            required
            className="md:col-span-2"
            description={<TextCount />}
            render={(field) => (
              <FormControl>
                <RichTextEditor value={(field.value as string | undefined) ?? ''} onChange={field.onChange} aria-label={t('wiki.content')} />
              </FormControl>
            )}
          />
        </FieldGroup>
      )}
    </FormScreen>
  );
}
