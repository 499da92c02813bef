import { useEffect, useState } from 'react';
import { ImageOff } from 'lucide-react';
import { filePaths } from '@/domain/uploads/stored-file';
import { download } from '@/lib/api-client';
import { cn } from '@/lib/cn';

/**
 * A thumbnail in a list cell, read with the session: a file of the store (`fileId`), or an image another route answers
 * (`url`, e.g. a library resource's cover); a placeholder without either.
 */
export function FileThumb({ fileId, url, alt, className }: { fileId?: string | null; url?: string | null; alt: string; className?: string }) {
  const source = url ?? (fileId ? filePaths.thumbnail(fileId) : null);
  const [src, setSrc] = useState<{ source: string; url: string | null } | null>(null);
  useEffect(() => {
    if (!source) return;
    let live = true;
    let objectUrl: string | null = null;
    void imageUrl(source).then((u) => {
      objectUrl = u;
      if (live) setSrc({ source, url: u });
      else if (u) URL.revokeObjectURL(u);
    });
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [source]);
  const shown = source && src?.source === source ? src.url : null;
  return (
    <span className={cn('flex size-10 shrink-0 items-center justify-center overflow-hidden rounded border bg-muted text-muted-foreground', className)}>
      {shown ? <img src={shown} alt={alt} className="size-full object-cover" /> : <ImageOff aria-hidden className="size-4" />}
    </span>
  );
}

async function imageUrl(source: string): Promise<string | null> {
  try {
    return URL.createObjectURL((await download(source)).blob);
  } catch {
    return null;
  }
}
