import DOMPurify from 'dompurify';
import { RICH_TEXT_CONFIG, richTextHook, type RichTextElement } from '@/domain/content/rich-text';
import { filePaths } from '@/domain/uploads/stored-file';
import { download } from '@/lib/api-client';

let hooked = false;

/** The browser's pass of the same allow-list the server applies (docs/product-rules.md#wiki), before anything is rendered. */
export function sanitizeRichText(html: string): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeType === 1) richTextHook(node as unknown as RichTextElement);
    });
    hooked = true;
  }
  return DOMPurify.sanitize(html, RICH_TEXT_CONFIG);
}

/**
 * Files of the store are read with the session (an <img src> carries no token): each image or video that names a
 * file gets an object URL of its content. Answers the URLs made, to revoke later.
 */
export async function loadFileSources(root: ParentNode, contentPath: (fileId: string) => string = filePaths.content): Promise<string[]> {
  const made: string[] = [];
  await Promise.all(
    [...root.querySelectorAll<HTMLImageElement | HTMLVideoElement>('img[data-file-id], video[data-file-id]')].map(async (el) => {
      const id = el.getAttribute('data-file-id')!;
      try {
        const url = URL.createObjectURL((await download(contentPath(id))).blob);
        made.push(url);
        el.setAttribute('src', url);
      } catch {
        el.removeAttribute('src');
      }
    }),
  );
  return made;
}

/** Stored form of editor HTML: every file element points at its content path again (object URLs are per page). */
export function canonicalFileSources(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const el of doc.body.querySelectorAll('[data-file-id]')) el.setAttribute('src', filePaths.content(el.getAttribute('data-file-id')!));
  return doc.body.innerHTML;
}

/** Editor form of stored HTML: file elements with object URLs (answers the HTML and the URLs to revoke). */
export async function withLoadedFiles(html: string): Promise<{ html: string; urls: string[] }> {
  const doc = new DOMParser().parseFromString(`<body>${sanitizeRichText(html)}</body>`, 'text/html');
  const urls = await loadFileSources(doc.body);
  return { html: doc.body.innerHTML, urls };
}
