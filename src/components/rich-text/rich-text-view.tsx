import { useEffect, useRef } from 'react';
import { cn } from '@/lib/cn';
import { loadFileSources, sanitizeRichText } from './rich-text';

/** Typography of rich text, shared by the editor and the view (no typography plugin in this project). */
export const RICH_TEXT_CLASS = cn(
  'text-sm leading-7 break-words',
  '[&_p]:my-2 [&_h1]:mt-5 [&_h1]:mb-2 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-xl [&_h2]:font-semibold',
  '[&_h3]:mt-3 [&_h3]:mb-1 [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:font-semibold',
  '[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6',
  '[&_blockquote]:my-3 [&_blockquote]:border-l-4 [&_blockquote]:pl-4 [&_blockquote]:text-muted-foreground',
  '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3',
  '[&_a]:text-primary [&_a]:underline [&_hr]:my-4 [&_img]:my-3 [&_img]:max-h-[480px] [&_img]:max-w-full [&_img]:rounded-md',
  '[&_video]:my-3 [&_video]:max-h-[480px] [&_video]:max-w-full [&_video]:rounded-md',
);

/**
 * Rich text as readers see it: sanitised again in the browser, images and videos loaded with the session. `contentPath`
 * reads a file through another route than the file store's (a notice's files are read through the notice, whose
 * readers are below the publisher: docs/product-rules.md#notices).
 */
export function RichTextView({ html, className, contentPath }: { html: string; className?: string; contentPath?: (fileId: string) => string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Set here rather than through React so the sources can be swapped for object URLs before anything loads.
    const doc = new DOMParser().parseFromString(`<body>${sanitizeRichText(html)}</body>`, 'text/html');
    const files = [...doc.body.querySelectorAll('[data-file-id]')];
    for (const f of files) f.removeAttribute('src');
    el.replaceChildren(...doc.body.childNodes);
    let urls: string[] = [];
    let live = true;
    void loadFileSources(el, contentPath).then((made) => {
      if (live) urls = made;
      else made.forEach((u) => URL.revokeObjectURL(u));
    });
    return () => {
      live = false;
      urls.forEach((u) => URL.revokeObjectURL(u));
    };
  }, [html, contentPath]);
  return <div ref={ref} data-testid="rich-text-view" className={cn(RICH_TEXT_CLASS, className)} />;
}
