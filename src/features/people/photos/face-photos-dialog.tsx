import { useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useListFormat } from '@/lib/list-format';
import { FolderOpen, ImageUp } from 'lucide-react';
import { ERR } from '@/domain/errors';
import {
  FACE_PHOTO_BATCH_MAX,
  FACE_PHOTO_UPLOAD_CONCURRENCY,
  type FacePhotoAmbiguous,
  type FacePhotoKind,
  type FacePhotoPerson,
} from '@/domain/people/face-photos';
import { acceptAttribute } from '@/domain/uploads/rules';
import type { ToolbarAction } from '@/components/list/list-screen';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/toast';
import { fileStoreTransport } from '@/components/upload/file-store';
import { PhotoAvatar } from '@/components/upload/photo-avatar';
import { cn } from '@/lib/cn';
import { applyFacePhotos, discardFacePhotos, matchFacePhotos, resourceKey } from './api';
import { itemsToApply, precheckFacePhoto, runBounded, type UploadedPhoto } from './face-photo-batch';

export interface FacePhotosDialogProps {
  kind: FacePhotoKind;
  /** The staff or student page ('k12.user.student'): its API prefix and its list to refresh. */
  pageKey: string;
  open: boolean;
  onOpenChange(open: boolean): void;
}

/**
 * Batch face photos (docs/product-rules.md#face-photos): choose many files or a folder; the names are matched on the
 * server, the matched files go to the file store a few at a time with progress, and the report lists matched,
 * ambiguous, unmatched and refused files. Nothing is set until Confirm; people who have a photo keep it unless the
 * uploader ticks Replace. Cancel removes what was uploaded.
 */
export function FacePhotosDialog({ kind, pageKey, open, onOpenChange }: FacePhotosDialogProps) {
  const { t } = useTranslation('people');
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-slot="face-photos-dialog" className="sm:max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{t(`photos.title.${kind}`)}</DialogTitle>
          <DialogDescription>{t(`photos.naming.${kind}`)}</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so closing always starts the next batch afresh. */}
        {open ? <Body pageKey={pageKey} close={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ButtonLabel() {
  const { t } = useTranslation('people');
  return t('photos.button');
}

/** The toolbar button of a staff or student list (the page's edit button): `toolbar={[…, facePhotosAction('student', key)]}`. */
export function facePhotosAction<T>(kind: FacePhotoKind, pageKey: string): ToolbarAction<T> {
  return {
    action: 'edit',
    id: 'facePhotos',
    label: <ButtonLabel />,
    icon: <ImageUp aria-hidden />,
    dialog: (props) => <FacePhotosDialog kind={kind} pageKey={pageKey} {...props} />,
  };
}

interface Refused {
  file: string;
  message: string;
}

interface Report {
  uploaded: UploadedPhoto[];
  ambiguous: FacePhotoAmbiguous[];
  unmatched: string[];
  refused: Refused[];
}

type Step = { at: 'choose' } | { at: 'matching'; count: number } | { at: 'uploading'; done: number; total: number } | { at: 'report'; report: Report };

function Body({ pageKey, close }: { pageKey: string; close(): void }) {
  const { t } = useTranslation(['people', 'errors']);
  const list = useListFormat();
  const personLabel = (p: FacePhotoPerson) => (p.detail ? t('people:photos.person', { name: p.name, detail: p.detail }) : p.name);
  const queryClient = useQueryClient();
  const filesId = useId();
  const folderId = useId();
  const [step, setStep] = useState<Step>({ at: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [replace, setReplace] = useState(false);
  const [applying, setApplying] = useState(false);
  // Uploaded files nobody has taken yet: removed when the dialog closes without applying them.
  const pending = useRef<string[]>([]);
  const gone = useRef(false);
  useEffect(() => {
    gone.current = false;
    return () => {
      gone.current = true;
      discardFacePhotos(pending.current);
    };
  }, []);

  const start = async (chosen: File[]) => {
    setError(null);
    if (chosen.length === 0) return;
    if (chosen.length > FACE_PHOTO_BATCH_MAX) {
      setError(t('people:photos.error.tooMany'));
      return;
    }
    setStep({ at: 'matching', count: chosen.length });
    const refused: Refused[] = [];
    const ok: File[] = [];
    for (const file of chosen) {
      const problem = await precheckFacePhoto(file);
      if (problem) refused.push({ file: file.name, message: t(problem) });
      else ok.push(file);
    }
    try {
      const match = ok.length ? await matchFacePhotos(pageKey, ok.map((f) => f.name)) : { matched: [], ambiguous: [], unmatched: [] };
      if (gone.current) return;
      const byName = new Map(ok.map((f) => [f.name, f]));
      let done = 0;
      setStep({ at: 'uploading', done, total: match.matched.length });
      const sent = await runBounded(
        match.matched,
        FACE_PHOTO_UPLOAD_CONCURRENCY,
        async (m) => {
          if (gone.current) throw new Error('closed');
          const stored = await fileStoreTransport.start(byName.get(m.file)!, 'face', () => undefined).done;
          pending.current.push(stored.id);
          return { file: m.file, person: m.person, fileId: stored.id };
        },
        () => {
          done++;
          if (!gone.current) setStep({ at: 'uploading', done, total: match.matched.length });
        },
      );
      if (gone.current) return;
      const uploaded: UploadedPhoto[] = [];
      sent.forEach((s, i) => {
        if (s.status === 'fulfilled') uploaded.push(s.value);
        else refused.push({ file: match.matched[i].file, message: s.reason instanceof Error && s.reason.message ? s.reason.message : t(ERR.uploadFailed) });
      });
      setStep({ at: 'report', report: { uploaded, ambiguous: match.ambiguous, unmatched: match.unmatched, refused } });
    } catch (e) {
      if (gone.current) return;
      setError(e instanceof Error && e.message ? e.message : t(ERR.uploadFailed));
      setStep({ at: 'choose' });
    }
  };

  const confirm = async (report: Report) => {
    const items = itemsToApply(report.uploaded, replace);
    setApplying(true);
    try {
      const answer = await applyFacePhotos(pageKey, items);
      const taken = new Set(items.map((i) => i.fileId));
      pending.current = pending.current.filter((id) => !taken.has(id));
      toast.success(t('people:photos.done', { count: answer.applied }));
      void queryClient.invalidateQueries({ queryKey: resourceKey(pageKey) });
      close();
    } catch (e) {
      toast.error(e instanceof Error && e.message ? e.message : t(ERR.uploadFailed));
    } finally {
      if (!gone.current) setApplying(false);
    }
  };

  const pick = (list: FileList | null, input: HTMLInputElement | null) => {
    const chosen = Array.from(list ?? []);
    if (input) input.value = '';
    void start(chosen);
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    void start(Array.from(e.dataTransfer.files));
  };

  if (step.at === 'choose')
    return (
      <>
        <div
          data-slot="face-photos-dropzone"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed border-border px-6 py-8 text-center transition-colors',
            dragging && 'border-primary bg-accent/60',
          )}
        >
          <ImageUp aria-hidden className="size-8 text-primary" />
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild>
              <label htmlFor={filesId} className="cursor-pointer">
                {t('people:photos.chooseFiles')}
              </label>
            </Button>
            <Button variant="outline" asChild>
              <label htmlFor={folderId} className="cursor-pointer">
                <FolderOpen aria-hidden />
                {t('people:photos.chooseFolder')}
              </label>
            </Button>
          </div>
          <span className="text-sm text-muted-foreground">{t('people:photos.dropHint')}</span>
          <span className="text-xs text-muted-foreground">{t('people:photos.rules')}</span>
        </div>
        <input
          id={filesId}
          type="file"
          multiple
          className="sr-only"
          accept={acceptAttribute('facePhoto')}
          aria-label={t('people:photos.filesInput')}
          data-testid="face-photos-files"
          onChange={(e) => pick(e.target.files, e.currentTarget)}
        />
        <input
          id={folderId}
          type="file"
          className="sr-only"
          aria-label={t('people:photos.folderInput')}
          data-testid="face-photos-folder"
          // Chromium, Firefox and Safari all pick a folder with this non-standard attribute.
          {...{ webkitdirectory: '' }}
          onChange={(e) => pick(e.target.files, e.currentTarget)}
        />
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={close}>
            {t('people:photos.cancel')}
          </Button>
        </DialogFooter>
      </>
    );

  if (step.at === 'matching' || step.at === 'uploading') {
    const percent = step.at === 'uploading' && step.total > 0 ? Math.round((step.done / step.total) * 100) : 0;
    return (
      <>
        <div className="flex flex-col gap-3 py-2" data-slot="face-photos-progress">
          <p className="flex items-center gap-2 text-sm text-foreground" aria-live="polite">
            <Spinner className="size-4" />
            {step.at === 'matching' ? t('people:photos.matching', { count: step.count }) : t('people:photos.uploading', { done: step.done, total: step.total })}
          </p>
          <div
            role="progressbar"
            aria-label={t('people:photos.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 w-full overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary transition-[width] duration-300" style={{ width: `${percent}%` }} />
          </div>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={close}>
            {t('people:photos.cancel')}
          </Button>
        </DialogFooter>
      </>
    );
  }

  const { report } = step;
  const withPhoto = report.uploaded.filter((u) => u.person.photoFileId !== null).length;
  const count = itemsToApply(report.uploaded, replace).length;
  const groups: { value: string; label: string; rows: ReactNode[]; hint?: string }[] = [
    {
      value: 'matched',
      label: t('people:photos.group.matched', { count: report.uploaded.length }),
      rows: report.uploaded.map((u) => (
        <Row key={u.file} file={u.file}>
          <span className="truncate">{personLabel(u.person)}</span>
          {u.person.photoFileId ? <Badge variant="outline">{t('people:photos.hasPhoto')}</Badge> : null}
        </Row>
      )),
    },
    {
      value: 'ambiguous',
      label: t('people:photos.group.ambiguous', { count: report.ambiguous.length }),
      rows: report.ambiguous.map((a) => (
        <Row key={a.file} file={a.file}>
          <span className="text-warning">
            {a.reason === 'people'
              ? t('people:photos.reason.people', { names: list(a.candidates.map(personLabel)) })
              : t('people:photos.reason.files', { name: personLabel(a.candidates[0]) })}
          </span>
        </Row>
      )),
      hint: t('people:photos.unmatchedHint'),
    },
    {
      value: 'unmatched',
      label: t('people:photos.group.unmatched', { count: report.unmatched.length }),
      rows: report.unmatched.map((file, i) => <Row key={`${file}-${i}`} file={file} />),
      hint: t('people:photos.unmatchedHint'),
    },
  ];
  if (report.refused.length > 0)
    groups.push({
      value: 'refused',
      label: t('people:photos.group.refused', { count: report.refused.length }),
      rows: report.refused.map((r, i) => (
        <Row key={`${r.file}-${i}`} file={r.file}>
          <span className="text-destructive">{r.message}</span>
        </Row>
      )),
    });

  return (
    <>
      <Tabs defaultValue={report.uploaded.length > 0 ? 'matched' : (groups.find((g) => g.rows.length > 0)?.value ?? 'matched')} data-slot="face-photos-report">
        <TabsList className="flex-wrap">
          {groups.map((g) => (
            <TabsTrigger key={g.value} value={g.value} data-testid={`face-photos-${g.value}`}>
              {g.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {groups.map((g) => (
          <TabsContent key={g.value} value={g.value} className="flex flex-col gap-2">
            {g.rows.length > 0 && g.hint ? <p className="text-sm text-muted-foreground">{g.hint}</p> : null}
            {g.rows.length > 0 ? (
              <ul className="max-h-72 divide-y overflow-y-auto rounded-md border text-sm">{g.rows}</ul>
            ) : (
              <p className="py-6 text-center text-sm text-muted-foreground">{t('people:photos.empty')}</p>
            )}
          </TabsContent>
        ))}
      </Tabs>
      {withPhoto > 0 ? (
        <div className="flex flex-col gap-1">
          <div className="flex items-center gap-2">
            <Checkbox id={`${filesId}-replace`} checked={replace} onCheckedChange={(v) => setReplace(v === true)} data-testid="face-photos-replace" />
            <Label htmlFor={`${filesId}-replace`}>{t('people:photos.replace', { count: withPhoto })}</Label>
          </div>
          <p className="text-xs text-muted-foreground">{t('people:photos.keepHint')}</p>
        </div>
      ) : null}
      <p className="text-sm text-foreground" data-slot="face-photos-summary">
        {count > 0 ? t('people:photos.summary', { count }) : t('people:photos.nothing')}
      </p>
      <DialogFooter>
        <Button variant="outline" onClick={close}>
          {t('people:photos.cancel')}
        </Button>
        <Button onClick={() => void confirm(report)} disabled={count === 0 || applying} data-testid="face-photos-confirm">
          {applying ? <Spinner className="size-4" /> : null}
          {t('people:photos.confirm')}
        </Button>
      </DialogFooter>
    </>
  );
}

function Row({ file, children }: { file: string; children?: ReactNode }) {
  return (
    <li className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] items-center gap-3 px-3 py-2">
      <span className="truncate font-mono text-xs text-muted-foreground" title={file}>
        {file}
      </span>
      <span className="flex min-w-0 items-center gap-2">{children}</span>
    </li>
  );
}

/** A person's name with their photo as a small avatar, for the name column of the people lists. */
export function PersonName({ name, photoFileId }: { name: string; photoFileId: string | null }) {
  return (
    <span className="flex items-center gap-2">
      <PhotoAvatar fileId={photoFileId} name={name} />
      <span className="font-medium whitespace-nowrap">{name}</span>
    </span>
  );
}
