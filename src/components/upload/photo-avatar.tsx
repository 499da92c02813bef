import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn';
import { fileStoreTransport, type UploadTransport } from './file-store';

export interface PhotoAvatarProps {
  /** The photo in the file store, or null: the name's first character stands in. */
  fileId: string | null | undefined;
  /** Whose photo: its alt text and the stand-in. */
  name: string;
  transport?: UploadTransport;
  className?: string;
}

/**
 * A person's face photo as a small round avatar in lists. Photos are served only to signed-in users of the
 * organisation, so the thumbnail is fetched with the session (an <img src> would carry no token).
 */
export function PhotoAvatar({ fileId, name, transport = fileStoreTransport, className }: PhotoAvatarProps) {
  const [src, setSrc] = useState<{ id: string; url: string | null } | null>(null);
  useEffect(() => {
    if (!fileId) return;
    let live = true;
    let url: string | null = null;
    void transport.thumbnail(fileId).then((u) => {
      url = u;
      if (live) setSrc({ id: fileId, url: u });
      else if (u?.startsWith('blob:')) URL.revokeObjectURL(u);
    });
    return () => {
      live = false;
      if (url?.startsWith('blob:')) URL.revokeObjectURL(url);
    };
  }, [fileId, transport]);
  const shown = fileId && src?.id === fileId ? src.url : null;
  return (
    <span
      data-slot="photo-avatar"
      // Whether the person has a photo, before its thumbnail has loaded (the e2e tests pick students without one).
      data-has-photo={fileId ? 'true' : 'false'}
      className={cn('inline-flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted text-xs font-medium text-muted-foreground', className)}
    >
      {shown ? <img src={shown} alt={name} className="size-full object-cover" /> : <span aria-hidden>{name.slice(0, 1)}</span>}
    </span>
  );
}
