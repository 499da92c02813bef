import { UUID_PATTERN } from '../fields';

/**
 * Rich text of wiki entries (docs/product-rules.md#wiki): the one allow-list both the server (on save and again on
 * show) and the browser (before rendering) pass to DOMPurify. Anything not listed is dropped: scripts, styles, event
 * handlers, iframes, forms, and every URL but http(s)/mailto links and files of the file store.
 */
export const RICH_TEXT_TAGS = [
  'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'code', 'pre', 'blockquote',
  'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'hr', 'a', 'img', 'video',
] as const;
export const RICH_TEXT_ATTRIBUTES = ['href', 'target', 'rel', 'src', 'alt', 'title', 'controls', 'data-file-id'] as const;

/** Links: http(s) and mailto only (never javascript:, data:, vbscript: …). */
export const RICH_TEXT_LINK = /^(?:https?:\/\/|mailto:)/i;

/** Where an image or video of the file store is read (the src a stored entry carries). */
const FILE_CONTENT = new RegExp(`^/api/uc/oss/files/(${UUID_PATTERN.source.slice(1, -1)})/content$`, 'i');

/** The file id of a file-store content URL, or null for any other URL. */
export function fileIdOfSrc(src: string): string | null {
  return FILE_CONTENT.exec(src)?.[1]?.toLowerCase() ?? null;
}

/** The DOMPurify configuration of rich text (plus the hook of `richTextHook`). */
export const RICH_TEXT_CONFIG = {
  ALLOWED_TAGS: [...RICH_TEXT_TAGS],
  ALLOWED_ATTR: [...RICH_TEXT_ATTRIBUTES],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Relative file-store paths and http(s)/mailto only.
  ALLOWED_URI_REGEXP: /^(?:https?:\/\/|mailto:|\/api\/uc\/oss\/files\/)/i,
};

/** The element facts the hook needs, so the rule stays free of the DOM types. */
export interface RichTextElement {
  tagName: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
}

/**
 * After DOMPurify's own pass: images and videos must be files of the file store (their src is the file's content
 * path and `data-file-id` names the same file), links get `rel="noopener noreferrer"` and open in a new tab.
 */
export function richTextHook(node: RichTextElement): void {
  const tag = node.tagName.toLowerCase();
  if (tag === 'img' || tag === 'video') {
    const id = fileIdOfSrc(node.getAttribute('src') ?? '');
    if (!id) return node.remove();
    node.setAttribute('data-file-id', id);
    if (tag === 'video') node.setAttribute('controls', '');
  } else {
    node.removeAttribute('src');
    node.removeAttribute('data-file-id');
  }
  if (tag === 'a') {
    const href = node.getAttribute('href') ?? '';
    if (!RICH_TEXT_LINK.test(href)) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  } else {
    node.removeAttribute('href');
    node.removeAttribute('target');
    node.removeAttribute('rel');
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The visible text of rich text (tags dropped, entities read), for the length limit. */
export function richTextPlain(html: string): string {
  return html
    .replace(/<(br|\/p|\/h\d|\/li|\/blockquote|\/pre)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .trim();
}

/** Characters the length limit counts: visible text without whitespace. */
export function richTextLength(html: string): number {
  return [...richTextPlain(html).replace(/\s+/g, '')].length;
}

/** File ids of images and videos in rich text. */
export function richTextFileIds(html: string): string[] {
  const ids = new Set<string>();
  for (const m of html.matchAll(/data-file-id="([0-9a-f-]{36})"/gi)) ids.add(m[1].toLowerCase());
  return [...ids];
}
