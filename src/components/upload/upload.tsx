import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon, Pause, Play, Plus, Upload as UploadIcon, X } from 'lucide-react';
import { IMAGE_COMPRESS_ABOVE } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { checkFile, formatBytes, isImagePurpose, PURPOSE_RULES, purposeExtensions, purposeMaxBytes, type FilePurpose } from '@/domain/uploads/rules';
import { SNIFF_BYTES, sniffFileType } from '@/domain/uploads/signatures';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { compressImage } from './compress-image';
import { fileStoreTransport, type UploadTask, type UploadTransport } from './file-store';

/** A single field holds one file id (or null); a field of several holds an array. */
export type UploadValue = string | readonly string[] | null | undefined;

export interface UploadProps {
  /** What the files are for: picks accepted types, ceilings, compression (`src/domain/uploads/rules.ts`). */
  purpose: FilePurpose;
  /** File ids in the file store. */
  value?: UploadValue;
  /** A string (or null) when the field holds one file, an array when `maxCount` > 1. */
  onChange?(value: string | string[] | null): void;
  /** Most files the field holds; defaults to the purpose's count (docs/product-rules.md#uploads), else 1. */
  maxCount?: number;
  /** Defaults to this server's file store. */
  transport?: UploadTransport;
  disabled?: boolean;
  /** Replaces the default hint (types and size); `false` hides it. */
  hint?: ReactNode | false;
  className?: string;
  id?: string;
  'aria-label'?: string;
  /** Told how many files are still on their way, e.g. to hold a submit until they are stored. */
  onPendingChange?(count: number): void;
}

interface Pending {
  key: string;
  name: string;
  preview?: string;
  progress: number;
  paused: boolean;
  task?: UploadTask;
}

// '' is a form's "no file yet" (a string field's default), not a file.
const idsOf = (value: UploadValue): string[] => (value == null ? [] : typeof value === 'string' ? [value] : [...value]).filter((id) => id !== '');

let seq = 0;

/** Checks type by content and size before sending; the server checks again (the browser may be bypassed). */
async function precheck(purpose: FilePurpose, file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return checkFile(purpose, sniffFileType(head), file.size);
}

function Thumbnail({ id, transport, alt }: { id: string; transport: UploadTransport; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    void transport.thumbnail(id).then((u) => {
      url = u;
      if (live) setSrc(u);
      else if (u?.startsWith('blob:')) URL.revokeObjectURL(u);
    });
    return () => {
      live = false;
      if (url?.startsWith('blob:')) URL.revokeObjectURL(url);
    };
  }, [id, transport]);
  return src ? <img src={src} alt={alt} className="size-full object-cover" /> : <FileIcon aria-hidden className="m-auto size-8 text-muted-foreground" />;
}

function FileName({ id, transport }: { id: string; transport: UploadTransport }) {
  const [name, setName] = useState(id);
  useEffect(() => {
    let live = true;
    transport.meta(id).then(
      (f) => live && setName(f.name),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id, transport]);
  return <>{name}</>;
}

/**
 * The one upload field of the console: every file goes to the file store (small ones in one request, big
 * ones resumably with pause/resume), checked here by content and size with the product's messages and again
 * on the server. Its value is file ids, so it plugs into react-hook-form as a controlled field.
 */
export function Upload({ purpose, value, onChange, maxCount, transport = fileStoreTransport, disabled = false, hint, className, id, 'aria-label': ariaLabel, onPendingChange }: UploadProps) {
  const { t } = useTranslation(['components', 'errors']);
  const rule = PURPOSE_RULES[purpose];
  const max = maxCount ?? rule.maxCount ?? 1;
  const many = max > 1;
  const isImage = isImagePurpose(purpose);
  const ids = idsOf(value);
  const inputRef = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  useEffect(() => onPendingChange?.(pending.length), [pending.length, onPendingChange]);
  // Uploads finish one by one; each must add to the newest list, not the one of its render.
  const latest = useRef<string[]>(ids);
  useEffect(() => {
    latest.current = idsOf(value);
  }, [value]);

  const emit = (next: string[]) => {
    latest.current = next;
    onChange?.(many ? next : (next[next.length - 1] ?? null));
  };
  const room = max - ids.length - pending.length;
  const full = room <= 0;
  const patch = (key: string, change: Partial<Pending>) => setPending((list) => list.map((p) => (p.key === key ? { ...p, ...change } : p)));
  const drop = (item: Pending) => {
    if (item.preview) URL.revokeObjectURL(item.preview);
    setPending((list) => list.filter((p) => p.key !== item.key));
  };

  const send = async (file: File, item: Pending) => {
    try {
      const ready = rule.compress && file.size > IMAGE_COMPRESS_ABOVE ? await compressImage(file) : file;
      const task = transport.start(ready, purpose, (progress) => patch(item.key, { progress }));
      patch(item.key, { task });
      const stored = await task.done;
      emit([...latest.current, stored.id]);
    } catch (e) {
      const message = e instanceof Error && e.message ? e.message : t(ERR.uploadFailed);
      setErrors((list) => [...list, t('upload.fileError', { name: file.name, message })]);
    } finally {
      drop(item);
    }
  };

  const choose = async (files: FileList | null) => {
    const chosen = Array.from(files ?? []);
    if (inputRef.current) inputRef.current.value = '';
    if (chosen.length === 0) return;
    const problems: string[] = [];
    const accepted: File[] = [];
    for (const file of chosen) {
      const problem = await precheck(purpose, file);
      if (problem) problems.push(t('upload.fileError', { name: file.name, message: t(problem) }));
      else if (accepted.length < room) accepted.push(file);
      else problems.push(t('upload.tooMany', { max }));
    }
    setErrors([...new Set(problems)]);
    const items: Pending[] = accepted.map((file) => ({
      key: `upload-${++seq}`,
      name: file.name,
      preview: isImage && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined,
      progress: 0,
      paused: false,
    }));
    if (items.length === 0) return;
    setPending((list) => [...list, ...items]);
    accepted.forEach((file, i) => void send(file, items[i]));
  };

  const remove = (index: number) => emit(ids.filter((_, i) => i !== index));

  const types = purposeExtensions(purpose)
    .map((e) => e.toUpperCase())
    .join(' / ');
  const shownHint = hint === false ? null : (hint ?? t('upload.hint', { types, size: formatBytes(purposeMaxBytes(purpose)) }));

  const progress = (p: Pending) => (
    <div className="flex w-full items-center gap-1">
      <div
        role="progressbar"
        aria-label={t('upload.uploading', { name: p.name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={p.progress}
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-[width]" style={{ width: `${p.progress}%` }} />
      </div>
      {p.task?.resumable ? (
        <Button
          variant="ghost"
          size="icon"
          className="size-6"
          aria-label={t(p.paused ? 'upload.resume' : 'upload.pause', { name: p.name })}
          onClick={() => {
            if (p.paused) p.task?.resume();
            else p.task?.pause();
            patch(p.key, { paused: !p.paused });
          }}
        >
          {p.paused ? <Play aria-hidden className="size-3.5" /> : <Pause aria-hidden className="size-3.5" />}
        </Button>
      ) : null}
    </div>
  );
  const openPicker = () => inputRef.current?.click();

  return (
    <div data-slot="upload" className={cn('flex flex-col gap-2', className)}>
      <input
        ref={inputRef}
        id={id}
        type="file"
        className="sr-only"
        tabIndex={-1}
        accept={purposeExtensions(purpose)
          .map((e) => `.${e}`)
          .join(',')}
        multiple={many}
        disabled={disabled || full}
        aria-label={ariaLabel ?? t('upload.choose')}
        onChange={(e) => void choose(e.target.files)}
      />
      {isImage ? (
        <ul className="flex flex-wrap gap-2">
          {ids.map((fileId, i) => (
            <li key={fileId} className="group relative flex size-24 overflow-hidden rounded-md border border-border bg-muted">
              <Thumbnail id={fileId} transport={transport} alt={t('upload.imageAlt', { index: i + 1 })} />
              {!disabled ? (
                <button
                  type="button"
                  aria-label={t('upload.remove', { name: t('upload.imageAlt', { index: i + 1 }) })}
                  onClick={() => remove(i)}
                  className="absolute top-1 right-1 flex size-6 items-center justify-center rounded-full bg-black/60 text-white opacity-80 transition-opacity group-hover:opacity-100 hover:bg-black/80 focus-visible:opacity-100"
                >
                  <X aria-hidden className="size-3.5" />
                </button>
              ) : null}
            </li>
          ))}
          {pending.map((p) => (
            <li key={p.key} className="relative size-24 overflow-hidden rounded-md border border-border bg-muted">
              {p.preview ? <img src={p.preview} alt={p.name} className="size-full object-cover opacity-50" /> : null}
              <div className="absolute inset-x-1 bottom-1">{progress(p)}</div>
            </li>
          ))}
          {!full && !disabled ? (
            <li>
              <button
                type="button"
                onClick={openPicker}
                className="flex size-24 flex-col items-center justify-center gap-1 rounded-md border border-dashed border-border text-sm text-muted-foreground transition-colors hover:border-primary hover:text-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <Plus aria-hidden className="size-5" />
                {t('upload.add')}
              </button>
            </li>
          ) : null}
        </ul>
      ) : (
        <div className="flex flex-col gap-2">
          <div>
            <Button variant="outline" size="sm" disabled={disabled || full} onClick={openPicker}>
              <UploadIcon aria-hidden className="size-4" />
              {t('upload.add')}
            </Button>
          </div>
          {ids.length + pending.length > 0 ? (
            <ul className="flex flex-col gap-1 text-sm">
              {ids.map((fileId, i) => (
                <li key={fileId} className="flex items-center gap-2 rounded-md px-2 py-1 hover:bg-muted">
                  <FileIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  <span className="min-w-0 flex-1 truncate">
                    <FileName id={fileId} transport={transport} />
                  </span>
                  {!disabled ? (
                    <Button variant="ghost" size="icon" className="size-6" aria-label={t('upload.remove', { name: fileId })} onClick={() => remove(i)}>
                      <X aria-hidden className="size-3.5" />
                    </Button>
                  ) : null}
                </li>
              ))}
              {pending.map((p) => (
                <li key={p.key} className="flex items-center gap-2 px-2 py-1 text-muted-foreground">
                  <span className="w-40 truncate">{p.name}</span>
                  {progress(p)}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
      {shownHint ? <p className="text-xs text-muted-foreground">{shownHint}</p> : null}
      {errors.length > 0 ? (
        <div role="alert" className="flex flex-col gap-0.5 text-sm text-destructive">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
