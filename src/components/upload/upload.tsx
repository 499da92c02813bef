import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon, Plus, Upload as UploadIcon, X } from 'lucide-react';
import { ERR } from '@/domain/errors';
import { acceptAttribute, checkUpload, formatBytes, shouldCompress, UPLOAD_RULES, type UploadKind } from '@/domain/uploads/rules';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { cn } from '@/lib/cn';
import { compressImage } from './compress-image';

export interface UploadProps {
  /** Decides accepted types, byte ceiling and compression (spec §5, `src/domain/uploads/rules.ts`). */
  kind: UploadKind;
  /** URLs of the files already uploaded. */
  value?: readonly string[];
  onChange?(urls: string[]): void;
  /** Most files the field holds; defaults to the spec's count for the kind, else 1. */
  maxCount?: number;
  /** Sends one file and answers its URL. Rejecting shows its message. */
  upload(file: File): Promise<{ url: string }>;
  disabled?: boolean;
  /** Replaces the default hint (types and size); `false` hides it. */
  hint?: ReactNode | false;
  className?: string;
  id?: string;
  'aria-label'?: string;
}

const IMAGE_KINDS: ReadonlySet<UploadKind> = new Set(['image', 'gif', 'facePhoto', 'stylePhoto', 'estamp']);

interface Pending {
  key: string;
  name: string;
  preview?: string;
}

function nameOf(url: string): string {
  const path = url.split(/[?#]/)[0];
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || url;
  } catch {
    return last || url;
  }
}

let seq = 0;

/**
 * File upload field enforcing spec §5 per kind (type and byte ceiling, with the spec's messages), with
 * image thumbnails, removal, and browser-side compression of images over 100 KB before upload.
 */
export function Upload({ kind, value = [], onChange, maxCount, upload, disabled = false, hint, className, id, 'aria-label': ariaLabel }: UploadProps) {
  const { t } = useTranslation(['components', 'errors']);
  const rule = UPLOAD_RULES[kind];
  const max = maxCount ?? rule.maxCount ?? 1;
  const isImage = IMAGE_KINDS.has(kind);
  const inputRef = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  // Uploads finish one by one; each must append to the newest list, not the one of its render.
  const latest = useRef<readonly string[]>(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);

  const room = max - value.length - pending.length;
  const full = room <= 0;

  const send = async (file: File, item: Pending) => {
    try {
      const ready = shouldCompress(kind, file.size) ? await compressImage(file) : file;
      const { url } = await upload(ready);
      const next = [...latest.current, url];
      latest.current = next;
      onChange?.(next);
    } catch (e) {
      toast.error(e instanceof Error && e.message ? e.message : t(ERR.uploadFailed));
    } finally {
      if (item.preview) URL.revokeObjectURL(item.preview);
      setPending((list) => list.filter((p) => p.key !== item.key));
    }
  };

  const choose = (files: FileList | null) => {
    const chosen = Array.from(files ?? []);
    if (inputRef.current) inputRef.current.value = '';
    if (chosen.length === 0) return;
    const problems: string[] = [];
    const accepted: File[] = [];
    for (const file of chosen) {
      const problem = checkUpload(kind, file);
      if (problem) problems.push(t('upload.fileError', { name: file.name, message: t(problem) }));
      else if (accepted.length < room) accepted.push(file);
      else problems.push(t('upload.tooMany', { max }));
    }
    setErrors([...new Set(problems)]);
    const items = accepted.map((file) => ({
      key: `upload-${++seq}`,
      name: file.name,
      preview: isImage && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined,
    }));
    if (items.length === 0) return;
    setPending((list) => [...list, ...items]);
    accepted.forEach((file, i) => void send(file, items[i]));
  };

  const remove = (index: number) => {
    const next = value.filter((_, i) => i !== index);
    latest.current = next;
    onChange?.(next);
  };

  const types = rule.extensions?.map((e) => e.toUpperCase()).join(' / ');
  const defaultHint =
    types && rule.maxBytes !== null
      ? t('upload.hint', { types, size: formatBytes(rule.maxBytes) })
      : types
        ? t('upload.hintTypes', { types })
        : rule.maxBytes !== null
          ? t('upload.hintSize', { size: formatBytes(rule.maxBytes) })
          : null;
  const shownHint = hint === false ? null : (hint ?? defaultHint);

  const input = (
    <input
      ref={inputRef}
      id={id}
      type="file"
      className="sr-only"
      tabIndex={-1}
      accept={acceptAttribute(kind)}
      multiple={max > 1}
      disabled={disabled || full}
      aria-label={ariaLabel ?? t('upload.choose')}
      onChange={(e) => choose(e.target.files)}
    />
  );
  const openPicker = () => inputRef.current?.click();

  return (
    <div data-slot="upload" className={cn('flex flex-col gap-2', className)}>
      {input}
      {isImage ? (
        <ul className="flex flex-wrap gap-2">
          {value.map((url, i) => (
            <li key={`${url}-${i}`} className="group relative size-24 overflow-hidden rounded-md border border-border bg-muted">
              <a href={url} target="_blank" rel="noreferrer" className="block size-full">
                <img src={url} alt={t('upload.imageAlt', { index: i + 1 })} className="size-full object-cover" />
              </a>
              {!disabled ? (
                <button
                  type="button"
                  aria-label={t('upload.remove', { name: nameOf(url) })}
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
              <div className="absolute inset-0 flex items-center justify-center">
                <Spinner label={t('upload.uploading', { name: p.name })} />
              </div>
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
          {value.length + pending.length > 0 ? (
            <ul className="flex flex-col gap-1 text-sm">
              {value.map((url, i) => (
                <li key={`${url}-${i}`} className="flex items-center gap-2 rounded-md px-2 py-1 hover:bg-muted">
                  <FileIcon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  <a href={url} target="_blank" rel="noreferrer" className="min-w-0 flex-1 truncate text-primary hover:underline">
                    {nameOf(url)}
                  </a>
                  {!disabled ? (
                    <Button variant="ghost" size="icon" className="size-6" aria-label={t('upload.remove', { name: nameOf(url) })} onClick={() => remove(i)}>
                      <X aria-hidden className="size-3.5" />
                    </Button>
                  ) : null}
                </li>
              ))}
              {pending.map((p) => (
                <li key={p.key} className="flex items-center gap-2 px-2 py-1 text-muted-foreground">
                  <Spinner label={t('upload.uploading', { name: p.name })} />
                  <span className="truncate">{p.name}</span>
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
