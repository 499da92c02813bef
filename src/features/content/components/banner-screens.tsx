import { useMemo } from 'react';
import { ArrowDown, ArrowUp, Eye, Power, PowerOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { BANNER_MAX, BANNER_POSITION_TABLE, bannerListQuery, bannerSaveSchema, type BannerForm, type BannerRow } from '@/domain/content/banners';
import type { Family } from '@/domain/menus/access';
import { filePaths } from '@/domain/uploads/stored-file';
import { Carousel } from '@/components/carousel/carousel';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FieldGroup, SelectField, TextField, UploadField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { bannerKey, banners, useBannerWrites } from '../api';

type Filters = { title?: string; position?: string };
const col = createDataTableColumnHelper<BannerRow>();

/** The carousel's control labels, translated. */
export function useCarouselLabels() {
  const { t } = useTranslation('content');
  return { previous: t('carousel.previous'), next: t('carousel.next'), slide: (i: number) => t('carousel.slide', { index: i }) };
}

/** banner/bannerConfig: banners by position and place; add, edit, detail (preview), on/off, move up/down, delete (docs/product-rules.md#banners). */
export function BannerListScreen({ family }: { family: Family }) {
  const { t } = useTranslation('content');
  const navigate = useNavigate();
  const key = bannerKey(family);
  const access = usePageAccess(key);
  const api = banners(family);
  const state = useListState<Filters>(['title', 'position']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const writes = useBannerWrites(family);
  const positionOptions = enumOptions(BANNER_POSITION_TABLE, t);

  const filters: FilterDef<Filters>[] = [
    { name: 'title', type: 'text', label: t('banner.title'), placeholder: t('banner.titlePlaceholder') },
    { name: 'position', type: 'select', label: t('banner.position'), options: positionOptions },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.display({
          id: 'image',
          header: t('banner.image'),
          cell: ({ row }) => (
            <img src={filePaths.publicThumbnail(row.original.imageFileId)} alt={row.original.title} className="h-10 w-24 rounded border object-cover" loading="lazy" />
          ),
        }),
        col.accessor('title', { header: t('banner.title'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('position', { header: t('banner.position'), cell: ({ getValue }) => enumLabel(BANNER_POSITION_TABLE, getValue(), t) }),
        col.accessor('sort', { header: t('banner.sort'), meta: { align: 'right' }, cell: ({ row }) => `${row.original.sort} / ${row.original.positionCount}` }),
        col.accessor('link', {
          header: t('banner.link'),
          cell: ({ getValue }) => {
            const link = getValue();
            return link ? (
              <a href={link} target="_blank" rel="noopener noreferrer" className="block max-w-64 truncate text-primary hover:underline">
                {link}
              </a>
            ) : (
              <span className="text-muted-foreground">{t('banner.noLink')}</span>
            );
          },
        }),
        col.accessor('enabled', {
          header: t('banner.status'),
          cell: ({ getValue }) => <Badge variant={getValue() ? 'success' : 'secondary'}>{t(getValue() ? 'banner.enabled' : 'banner.disabled')}</Badge>,
        }),
        rowActionsColumn<BannerRow>({
          pageKey: key,
          header: t('components:list.actions'),
          // Reordering is this list's frequent action: Move up and Move down come first, so they stay buttons and the
          // rest (detail, edit, on/off, delete) go in the "更多" menu (the kit keeps the first MAX_INLINE_ACTIONS - 1).
          actions: [
            {
              action: 'sort',
              label: t('banner.moveUp'),
              icon: <ArrowUp aria-hidden />,
              disabled: (r) => r.sort <= 1,
              disabledHint: () => t('validation.banner.alreadyFirst'),
              onClick: (r) => void writes.move.mutateAsync({ row: r, direction: 'up' }),
              testId: 'banner-up',
            },
            {
              action: 'sort',
              label: t('banner.moveDown'),
              icon: <ArrowDown aria-hidden />,
              disabled: (r) => r.sort >= r.positionCount,
              disabledHint: () => t('validation.banner.alreadyLast'),
              onClick: (r) => void writes.move.mutateAsync({ row: r, direction: 'down' }),
              testId: 'banner-down',
            },
            { action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => void navigate(access.paths.detail!(r.id)), testId: 'banner-detail' },
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            {
              action: 'status',
              label: t('banner.disable'),
              icon: <PowerOff aria-hidden />,
              hidden: (r) => !r.enabled,
              confirm: (r) => ({ title: t('banner.disableTitle', { name: r.title }), description: t('banner.disableText') }),
              onClick: (r) => writes.status.mutateAsync({ row: r, enabled: false }).then(() => undefined),
              testId: 'banner-disable',
            },
            {
              action: 'status',
              label: t('banner.enable'),
              icon: <Power aria-hidden />,
              hidden: (r) => r.enabled,
              onClick: (r) => void writes.status.mutateAsync({ row: r, enabled: true }),
              testId: 'banner-enable',
            },
            deleteAction((r) => ({ title: t('banner.deleteTitle', { name: r.title }), description: t('banner.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, navigate, access.paths, remove, writes.move, writes.status],
  );

  return (
    <ListScreen
      pageKey={key}
      description={t('banner.listHint', { max: BANNER_MAX })}
      state={state}
      querySchema={bannerListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="banner-list"
    />
  );
}

/** banner/bannerConfig/add and edit/:uid. */
export function BannerFormScreen({ family }: { family: Family }) {
  const { t } = useTranslation('content');
  const { uid } = useParams();
  const access = usePageAccess(bannerKey(family));
  const defaults: BannerForm = { title: '', position: 'login', imageFileId: null, link: '', enabled: true };
  return (
    <FormScreen
      schema={bannerSaveSchema}
      resource={banners(family)}
      id={uid}
      defaults={defaults}
      toValues={(r) => ({ title: r.title, position: r.position, imageFileId: r.imageFileId, link: r.link ?? '', enabled: r.enabled, version: r.version })}
      title={uid ? t('banner.editTitle') : t('banner.addTitle')}
      description={t('banner.formHint', { max: BANNER_MAX })}
      backTo={access.paths.list}
      data-testid="banner-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="title" label={t('banner.title')} required placeholder={t('banner.titlePlaceholder')} />
          <SelectField name="position" label={t('banner.position')} required clearable={false} options={enumOptions(BANNER_POSITION_TABLE, t)} />
          <TextField name="link" label={t('banner.link')} placeholder={t('banner.linkPlaceholder')} className="md:col-span-2" />
          <UploadField name="imageFileId" label={t('banner.image')} required purpose="banner" maxCount={1} className="md:col-span-2" description={t('banner.imageHint')} />
        </FieldGroup>
      )}
    </FormScreen>
  );
}

/** banner/bannerConfig/detail/:uid: the banner's facts and a preview of its position's carousel as people will see it. */
export function BannerDetailScreen({ family }: { family: Family }) {
  const { t } = useTranslation('content');
  const { uid = '' } = useParams();
  const api = banners(family);
  const one = api.useGet(uid);
  const position = one.data?.position;
  const siblings = api.useList({ current: 1, size: 20, position }, { enabled: Boolean(position) });
  const labels = useCarouselLabels();
  const slides = (siblings.data?.records ?? [])
    .filter((r) => r.enabled)
    .map((r) => ({ id: r.id, title: r.title, link: r.link, image: filePaths.publicContent(r.imageFileId) }));
  return (
    <div data-testid="banner-detail" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader title={t('banner.detailTitle')} back={{ safe: true }} />
      <QueryState query={one} data={one.data}>
        {(b) => (
          <div className="grid gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <Card>
              <CardContent className="grid gap-3 pt-6">
                <h2 className="text-sm font-medium">{t('banner.preview', { position: enumLabel(BANNER_POSITION_TABLE, b.position, t) })}</h2>
                {slides.length > 0 ? (
                  <Carousel items={slides} labels={labels} className="aspect-[8/3] w-full rounded-lg bg-muted" data-testid="banner-preview" />
                ) : (
                  <p className="rounded-lg bg-muted p-8 text-center text-sm text-muted-foreground">{t('banner.previewEmpty')}</p>
                )}
              </CardContent>
            </Card>
            <Card>
              <CardContent className="pt-6">
                <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-3 text-sm">
                  <dt className="text-muted-foreground">{t('banner.title')}</dt>
                  <dd className="font-medium break-words">{b.title}</dd>
                  <dt className="text-muted-foreground">{t('banner.position')}</dt>
                  <dd>{enumLabel(BANNER_POSITION_TABLE, b.position, t)}</dd>
                  <dt className="text-muted-foreground">{t('banner.sort')}</dt>
                  <dd>{`${b.sort} / ${b.positionCount}`}</dd>
                  <dt className="text-muted-foreground">{t('banner.status')}</dt>
                  <dd>
                    <Badge variant={b.enabled ? 'success' : 'secondary'}>{t(b.enabled ? 'banner.enabled' : 'banner.disabled')}</Badge>
                  </dd>
                  <dt className="text-muted-foreground">{t('banner.link')}</dt>
                  <dd className="break-all">{b.link ?? t('banner.noLink')}</dd>
                </dl>
                <img src={filePaths.publicContent(b.imageFileId)} alt={b.title} className="mt-4 w-full rounded border object-cover" />
              </CardContent>
            </Card>
          </div>
        )}
      </QueryState>
    </div>
  );
}
