import type { SchoolFamily } from '@/domain/menus/access';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { FileDown, ImagePlus, Pencil, Trash2, Upload as UploadIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { CAPTION_MAX, certificateListQuery, ESTAMP_MAX, ISSUE_FORMATS, photoAddSchema, stampSaveSchema, STYLE_PHOTO_MAX, type CertificateRow, type IssueFormat, type PhotoRow } from '@/domain/meets/documents';
import { filePaths } from '@/domain/uploads/stored-file';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { TextField, UploadField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { ListScreen } from '@/components/list/list-screen';
import { deleteAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import { download } from '@/lib/api-client';
import { jobFinished } from '@/domain/jobs';
import { downloadJobFile, jobsKey, useJob } from '@/components/jobs/api';
import { JobProgress } from '@/components/jobs/job-progress';
import { meets } from '../api';
import { certificates, issueCertificates, useIssueOptions, usePhotos, useStamps } from '../documents-api';

/** Screens of docs/product-rules.md#meet-documents: e-stamps, certificate templates (list and issue) and style photos. */
const STAMP_KEY = 'single.sportsMeet.eStamp';
const CERTIFICATE_KEY = 'single.sportsMeet.certificate';

/** A blob URL of a file-store image (its thumbnail or its content), revoked when no longer shown. */
export function useFileUrl(fileId: string | null | undefined, kind: 'thumbnail' | 'content' = 'thumbnail'): string | null {
  const [loaded, setLoaded] = useState<{ fileId: string; url: string } | null>(null);
  useEffect(() => {
    if (!fileId) return;
    let live = true;
    let made: string | null = null;
    download(kind === 'content' ? filePaths.content(fileId) : filePaths.thumbnail(fileId)).then(
      (f) => {
        made = URL.createObjectURL(f.blob);
        if (live) setLoaded({ fileId, url: made });
        else URL.revokeObjectURL(made);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [fileId, kind]);
  return fileId && loaded?.fileId === fileId ? loaded.url : null;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

// ── E-stamps ────────────────────────────────────────────────────────────────────────────────────────────

/** /single/sportsMeet/eStamp: the organisation's stamps with previews; upload and delete by the catalogue's buttons. */
export function StampScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const access = usePageAccess(STAMP_KEY);
  const stamps = useStamps(family);
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const count = stamps.list.data?.length ?? 0;
  const canDelete = access.can('delete');
  return (
    <div className="grid gap-4" data-testid="stamp-screen">
      <PageHeader
        title={t('stamp.title')}
        description={`${t('stamp.hint', { max: ESTAMP_MAX })} · ${t('stamp.count', { count, max: ESTAMP_MAX })}`}
        actions={
          access.can('upload') ? (
            <Button onClick={() => setUploading(true)} disabled={count >= ESTAMP_MAX} data-testid="stamp-upload">
              <UploadIcon aria-hidden /> {t('menus:button.upload')}
            </Button>
          ) : null
        }
      />
      <QueryState query={stamps.list} data={stamps.list.data} isEmpty={(d) => d.length === 0} empty={t('stamp.empty')}>
        {(list) => (
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5" aria-label={t('stamp.title')}>
            {list.map((s) => (
              <li key={s.id} className="min-w-0">
                <Card className="h-full">
                  {/* minmax(0, 1fr): a long stamp name truncates instead of widening the card over its neighbour. */}
                  <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-2 p-3">
                    <StampImage fileId={s.fileId} name={s.name} />
                    <div className="flex items-start justify-between gap-2">
                      <div className="min-w-0">
                        <p className="truncate font-medium" title={s.name}>
                          {s.name}
                        </p>
                        <p className="text-xs text-muted-foreground">{t('stamp.sizeText', { width: s.width, height: s.height, kb: Math.max(1, Math.round(s.size / 1024)) })}</p>
                      </div>
                      {canDelete ? (
                        <Button variant="ghost" size="icon" aria-label={t('stamp.deleteLabel', { name: s.name })} onClick={() => setRemoving(s)}>
                          <Trash2 aria-hidden />
                        </Button>
                      ) : null}
                    </div>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <StampUploadDialog family={family} open={uploading} onOpenChange={setUploading} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        destructive
        title={t('stamp.deleteTitle', { name: removing?.name ?? '' })}
        description={t('stamp.deleteText')}
        onConfirm={async () => {
          try {
            await stamps.remove.mutateAsync(removing!.id);
            toast.success(t('common:msg.deleteOk'));
          } catch (e) {
            toast.error(errorText(e));
            throw e;
          }
        }}
      />
    </div>
  );
}

function StampImage({ fileId, name }: { fileId: string; name: string }) {
  const url = useFileUrl(fileId);
  // A checkerboard shows the stamp's transparency.
  return (
    <div className="flex aspect-square items-center justify-center rounded-md border bg-[conic-gradient(var(--muted)_25%,transparent_0_50%,var(--muted)_0_75%,transparent_0)] bg-[length:16px_16px]">
      {url ? <img src={url} alt={name} className="max-h-full max-w-full object-contain" /> : null}
    </div>
  );
}

/** A stamp's name and its PNG; the save waits for the upload. */
function StampUploadDialog({ family, open, onOpenChange }: { family: SchoolFamily; open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('meets');
  const stamps = useStamps(family);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={stampSaveSchema}
      defaults={{ name: '', fileId: '' }}
      title={t('stamp.uploadTitle')}
      description={t('stamp.hint', { max: ESTAMP_MAX })}
      submit={(body) => stamps.add.mutateAsync(body)}
      success={t('stamp.uploaded')}
      ready={(v) => !!v.fileId}
      submitText={t('common:action.save')}
      submitTestId="stamp-save"
      data-testid="stamp-dialog"
    >
      {() => (
        <>
          <TextField name="name" label={t('stamp.name')} placeholder={t('stamp.namePlaceholder')} inputTestId="stamp-name" />
          <UploadField name="fileId" label={t('stamp.image')} purpose="stamp" maxCount={1} hint={t('stamp.hint', { max: ESTAMP_MAX })} />
        </>
      )}
    </FormDialog>
  );
}

// ── Certificate templates ───────────────────────────────────────────────────────────────────────────────

const certCol = createDataTableColumnHelper<CertificateRow>();
type CertificateFilters = { name?: string };

/** /single/sportsMeet/certificate: the templates; add, edit, delete, and issue certificates from one. */
export function CertificateListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const navigate = useNavigate();
  const access = usePageAccess(CERTIFICATE_KEY);
  const api = certificates(family);
  const state = useListState<CertificateFilters>(['name']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const [issuing, setIssuing] = useState<CertificateRow | null>(null);
  const canDownload = access.can('download');
  const columns = useMemo(
    () =>
      certCol.columns([
        certCol.accessor('name', { header: t('certificate.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        certCol.accessor('orientation', { header: t('certificate.orientation'), cell: ({ getValue }) => t(`certificate.orientations.${getValue()}`) }),
        certCol.display({ id: 'fields', header: t('certificate.fieldCount'), cell: ({ row }) => row.original.fields.length, meta: { align: 'right' } }),
        certCol.accessor('stampName', { header: t('certificate.stamp'), cell: ({ getValue }) => getValue() ?? t('certificate.noStamp') }),
        rowActionsColumn<CertificateRow>({
          pageKey: CERTIFICATE_KEY,
          header: t('components:list.actions'),
          width: 240,
          actions: [
            // Issuing hands the certificates over as a file: it also takes the page's download button.
            { action: 'issue', icon: <FileDown aria-hidden />, hidden: () => !canDownload, onClick: (r) => setIssuing(r) },
            { action: 'edit', icon: <Pencil aria-hidden />, onClick: (r) => void navigate(access.paths.edit!(r.id)) },
            deleteAction((r) => ({ title: t('certificate.deleteTitle', { name: r.name }), description: t('certificate.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove, canDownload],
  );
  return (
    <>
      <ListScreen
        pageKey={CERTIFICATE_KEY}
        state={state}
        querySchema={certificateListQuery}
        filters={[{ name: 'name', type: 'text', label: t('certificate.name') }]}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        data-testid="certificate-list"
      />
      {issuing ? <IssueDialog family={family} template={issuing} onClose={() => setIssuing(null)} /> : null}
    </>
  );
}

function IssueDialog({ family, template, onClose }: { family: SchoolFamily; template: CertificateRow; onClose(): void }) {
  const { t } = useTranslation('meets');
  const options = useIssueOptions(family, true);
  const [meetId, setMeetId] = useState('');
  const [eventId, setEventId] = useState('');
  const [fromPlace, setFrom] = useState('1');
  const [toPlace, setTo] = useState('3');
  const [format, setFormat] = useState<IssueFormat>('pdf');
  const [date, setDate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Issuing is a job: the dialog shows its bar and saves its file when done; closed, the job goes on under 任务.
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob(jobId);
  const jobTasks = useQueryClient();
  const saved = useRef<string | null>(null);
  const finished = job.data && jobFinished(job.data.state) ? job.data : null;
  useEffect(() => {
    if (!finished || saved.current === finished.id) return;
    saved.current = finished.id;
    void jobTasks.invalidateQueries({ queryKey: jobsKey });
    if (finished.state !== 'done') return;
    toast.success(t('certificate.issued'));
    downloadJobFile(finished).catch((e: unknown) => setError(errorText(e)));
  }, [finished, jobTasks, t]);
  const meet = options.data?.find((m) => m.id === meetId) ?? options.data?.[0];
  const submit = async () => {
    if (!meet) return;
    setError(null);
    setBusy(true);
    try {
      setJobId(await issueCertificates(family, template.id, { meetId: meet.id, eventId: eventId || null, fromPlace: Number(fromPlace), toPlace: Number(toPlace), format, date: date || undefined }));
      void jobTasks.invalidateQueries({ queryKey: jobsKey });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const working = !!jobId && !finished;
  const select = 'h-9 rounded-md border border-input bg-background px-3 text-sm';
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="sm:max-w-lg" data-testid="issue-dialog">
        <DialogHeader>
          <DialogTitle>{t('certificate.issueTitle', { name: template.name })}</DialogTitle>
          <DialogDescription>{t('certificate.issueHint')}</DialogDescription>
        </DialogHeader>
        <QueryState query={options} data={options.data} isEmpty={(d) => d.length === 0} empty={t('certificate.noMeets')}>
          {(list) => (
            <div className="grid gap-3 sm:grid-cols-2">
              <label className="grid gap-1 text-sm sm:col-span-2">
                {t('certificate.meet')}
                <select className={select} value={meet?.id ?? ''} onChange={(e) => (setMeetId(e.target.value), setEventId(''))} data-testid="issue-meet">
                  {list.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                    </option>
                  ))}
                </select>
              </label>
              <label className="grid gap-1 text-sm sm:col-span-2">
                {t('certificate.event')}
                <select className={select} value={eventId} onChange={(e) => setEventId(e.target.value)} data-testid="issue-event">
                  <option value="">{t('certificate.allEvents')}</option>
                  {(meet?.events ?? []).map((e) => (
                    <option key={e.id} value={e.id}>
                      {t('certificate.eventOption', { group: e.groupName, name: e.name, count: e.places })}
                    </option>
                  ))}
                </select>
              </label>
              <label className="grid gap-1 text-sm">
                {t('certificate.fromPlace')}
                <Input type="number" min={1} max={99} value={fromPlace} onChange={(e) => setFrom(e.target.value)} data-testid="issue-from" />
              </label>
              <label className="grid gap-1 text-sm">
                {t('certificate.toPlace')}
                <Input type="number" min={1} max={99} value={toPlace} onChange={(e) => setTo(e.target.value)} data-testid="issue-to" />
              </label>
              <fieldset className="grid gap-1 text-sm sm:col-span-2">
                <legend className="mb-1">{t('certificate.format')}</legend>
                <div className="flex flex-wrap gap-4">
                  {ISSUE_FORMATS.map((f) => (
                    <label key={f} className="flex items-center gap-2">
                      <input type="radio" name="issue-format" value={f} checked={format === f} onChange={() => setFormat(f)} />
                      {t(`certificate.formats.${f}`)}
                    </label>
                  ))}
                </div>
              </fieldset>
              <label className="grid gap-1 text-sm sm:col-span-2">
                {t('certificate.date')}
                <Input type="date" value={date} onChange={(e) => setDate(e.target.value)} />
              </label>
            </div>
          )}
        </QueryState>
        {job.data ? (
          <div className="grid gap-1 rounded-md border bg-muted/40 p-3">
            <JobProgress job={job.data} />
            {working ? <p className="text-xs text-muted-foreground">{t('jobs:leaveHint')}</p> : null}
          </div>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {finished || working ? t('jobs:close') : t('common:action.cancel')}
          </Button>
          <Button onClick={() => void submit()} disabled={!meet || working} loading={busy} data-testid="issue-submit">
            <FileDown aria-hidden /> {t('certificate.issue')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

// ── Style photos ────────────────────────────────────────────────────────────────────────────────────────

/** sportsMeet/demeanor/:meetId: the meet's gallery; upload many with progress, captions, delete. */
export function PhotoScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { meetId = '' } = useParams();
  const meet = meets(family).useGet(meetId);
  const photos = usePhotos(family, meetId);
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState<PhotoRow | null>(null);
  const count = photos.list.data?.length ?? 0;
  return (
    <div className="grid gap-4" data-testid="photo-screen">
      <PageHeader
        title={t('photo.title', { name: meet.data?.name ?? '' })}
        description={`${t('photo.hint')} · ${t('photo.count', { count, max: STYLE_PHOTO_MAX })}`}
        back
        actions={
          <Button onClick={() => setUploading(true)} disabled={count >= STYLE_PHOTO_MAX} data-testid="photo-upload">
            <ImagePlus aria-hidden /> {t('photo.upload')}
          </Button>
        }
      />
      <QueryState query={photos.list} data={photos.list.data} isEmpty={(d) => d.length === 0} empty={t('photo.empty')}>
        {(list) => (
          <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-4" aria-label={t('photo.title', { name: meet.data?.name ?? '' })}>
            {list.map((p, i) => (
              <PhotoCard key={`${p.id}:${p.version}`} photo={p} no={i + 1} family={family} meetId={meetId} onDelete={() => setRemoving(p)} />
            ))}
          </ul>
        )}
      </QueryState>
      {uploading ? <PhotoUploadDialog family={family} meetId={meetId} room={STYLE_PHOTO_MAX - count} onClose={() => setUploading(false)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        destructive
        title={t('photo.deleteTitle')}
        description={t('photo.deleteText')}
        onConfirm={async () => {
          try {
            await photos.remove.mutateAsync(removing!.id);
            toast.success(t('common:msg.deleteOk'));
          } catch (e) {
            toast.error(errorText(e));
            throw e;
          }
        }}
      />
    </div>
  );
}

function PhotoCard({ photo, no, family, meetId, onDelete }: { photo: PhotoRow; no: number; family: SchoolFamily; meetId: string; onDelete(): void }) {
  const { t } = useTranslation('meets');
  const url = useFileUrl(photo.fileId);
  const photos = usePhotos(family, meetId);
  // The card is keyed by the photo's version, so a saved caption starts a fresh input.
  const [caption, setCaption] = useState(photo.caption ?? '');
  const save = async () => {
    if (caption === (photo.caption ?? '')) return;
    try {
      await photos.caption.mutateAsync({ id: photo.id, caption, version: photo.version });
      toast.success(t('photo.captionSaved'));
    } catch (e) {
      toast.error(errorText(e));
    }
  };
  return (
    <li>
      <Card className="h-full overflow-hidden py-0">
        <div className="relative aspect-[4/3] bg-muted">
          {url ? <img src={url} alt={photo.caption || photo.name} className="size-full object-cover" /> : null}
          <Button variant="secondary" size="icon" className="absolute top-2 right-2 size-8 opacity-90" aria-label={t('photo.delete', { no })} onClick={onDelete}>
            <Trash2 aria-hidden />
          </Button>
        </div>
        <CardContent className="p-2">
          <Input
            value={caption}
            maxLength={CAPTION_MAX}
            placeholder={t('photo.captionPlaceholder')}
            aria-label={t('photo.captionOf', { no })}
            onChange={(e) => setCaption(e.target.value)}
            onBlur={() => void save()}
            onKeyDown={(e) => e.key === 'Enter' && (e.currentTarget as HTMLInputElement).blur()}
            data-testid="photo-caption"
          />
        </CardContent>
      </Card>
    </li>
  );
}

/** Photos for the meet's gallery, as many as it has room for; the save waits for the uploads. */
function PhotoUploadDialog({ family, meetId, room, onClose }: { family: SchoolFamily; meetId: string; room: number; onClose(): void }) {
  const { t } = useTranslation('meets');
  const photos = usePhotos(family, meetId);
  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      schema={photoAddSchema}
      defaults={{ fileIds: [] }}
      title={t('photo.uploadTitle')}
      description={t('photo.uploadHint')}
      className="sm:max-w-2xl"
      submit={async ({ fileIds }) => {
        await photos.add.mutateAsync(fileIds);
        return fileIds.length;
      }}
      success={(count) => t('photo.added', { count })}
      ready={(v) => (v.fileIds?.length ?? 0) > 0}
      submitText={t('photo.addToGallery')}
      submitTestId="photo-save"
      data-testid="photo-dialog"
    >
      {() => <UploadField name="fileIds" label={t('photo.upload')} purpose="style" maxCount={Math.max(1, room)} hint={t('photo.hint')} />}
    </FormDialog>
  );
}
