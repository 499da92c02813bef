import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { RICH_TEXT_CONFIG, richTextHook, type RichTextElement } from '@/domain/content/rich-text';

// DOMPurify over jsdom directly: isomorphic-dompurify's own jsdom needs Node 22 (zstd in undici).
const purify = createDOMPurify(new JSDOM('').window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeType === 1) richTextHook(node as unknown as RichTextElement);
});

/**
 * Sanitises wiki rich text with the allow-list of src/domain/content/rich-text.ts (docs/product-rules.md#wiki): on
 * save, and again whenever an entry is answered, so a row written around this code is still made safe when shown.
 */
export function sanitizeRichText(html: string): string {
  return purify.sanitize(html, RICH_TEXT_CONFIG);
}
