import { createRequire } from 'node:module';
import type { DOMPurify } from 'dompurify';
import type * as Jsdom from 'jsdom';
import { RICH_TEXT_CONFIG, richTextHook, type RichTextElement } from '@/domain/content/rich-text';

let purify: DOMPurify | undefined;

/**
 * DOMPurify over jsdom directly (isomorphic-dompurify's own jsdom needs Node 22: zstd in undici), made on the first
 * rich text: jsdom is the heaviest module of the server (≈ 1 s and 70 MiB), and start-up need not wait for it.
 */
function purifier(): DOMPurify {
  if (purify) return purify;
  const load = createRequire(import.meta.url);
  const { JSDOM } = load('jsdom') as typeof Jsdom;
  const createDOMPurify = load('dompurify') as (window: unknown) => DOMPurify;
  purify = createDOMPurify(new JSDOM('').window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeType === 1) richTextHook(node as unknown as RichTextElement);
  });
  return purify;
}

/**
 * Sanitises wiki rich text with the allow-list of src/domain/content/rich-text.ts (docs/product-rules.md#wiki): on
 * save, and again whenever an entry is answered, so a row written around this code is still made safe when shown.
 */
export function sanitizeRichText(html: string): string {
  return purifier().sanitize(html, RICH_TEXT_CONFIG);
}
