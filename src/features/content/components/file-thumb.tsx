import { useEffect, useState } from 'react';
import { ImageOff } from 'lucide-react';
import { fileStoreTransport } from '@/components/upload/file-store';
import { cn } from '@/lib/cn';

/** A file's thumbnail in a list cell, read with the session; a placeholder without a file. */
export function FileThumb({ fileId, alt, className }: { fileId: string | null; alt: string; className?: string }) {
  const [src, setSrc] = useState<{ id: string; url: string | null } | null>(null);
  useEffect(() => {
    if (!fileId) return;
    let live = true;
    let url: string | null = null;
    void fileStoreTransport.thumbnail(fileId).then((u) => {
      url = u;
      if (live) setSrc({ id: fileId, url: u });
      else if (u) URL.revokeObjectURL(u);
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [fileId]);
  const shown = fileId && src?.id === fileId ? src.url : null;
  return (
    <span className={cn('flex size-10 shrink-0 items-center justify-center overflow-hidden rounded border bg-muted text-muted-foreground', className)}>
      {shown ? <img src={shown} alt={alt} className="size-full object-cover" /> : <ImageOff aria-hidden className="size-4" />}
    </span>
  );
}
