import { z } from 'zod';
import { enumFilter, nullableId } from '../fields';
import { listQuery, textFilter, versionField } from '../list-query';
import { richTextLength } from './rich-text';
import { enumTable } from '../presentation';

/**
 * School wiki entries (docs/product-rules.md#wiki): title, category, an optional 1:1 cover (purpose `cover`), rich
 * text with images and videos of the file store, published or not. The text counts at most WIKI_TEXT_MAX
 * characters ("content text exceeds the word limit").
 */

export const WIKI_CATEGORIES = ['rules', 'skills', 'health', 'history', 'other'] as const;
export type WikiCategory = (typeof WIKI_CATEGORIES)[number];
export const WIKI_CATEGORY_TABLE = enumTable(WIKI_CATEGORIES, (c) => `content:wiki.categories.${c}`);

export const WIKI_TITLE_MAX = 50;
/** Visible characters of an entry's text. */
export const WIKI_TEXT_MAX = 20_000;
/** Stored HTML, markup included: a bound on what one save may send. */
export const WIKI_HTML_MAX = 200_000;

export const wikiSaveSchema = z.object({
  title: z.string({ error: 'content:validation.wiki.titleRequired' }).trim().min(1, 'content:validation.wiki.titleRequired').max(WIKI_TITLE_MAX, 'content:validation.wiki.titleLength'),
  category: z.enum(WIKI_CATEGORIES, { error: 'content:validation.wiki.categoryRequired' }),
  coverFileId: nullableId(),
  content: z
    .string({ error: 'content:validation.wiki.contentRequired' })
    .max(WIKI_HTML_MAX, 'content:validation.wiki.contentLength')
    .refine((html) => richTextLength(html) > 0 || /<(img|video)\b/i.test(html), 'content:validation.wiki.contentRequired')
    .refine((html) => richTextLength(html) <= WIKI_TEXT_MAX, 'content:validation.wiki.contentLength'),
  published: z.preprocess((v) => v === true || v === 'true', z.boolean()),
  version: versionField.optional(),
});
export type WikiSave = z.output<typeof wikiSaveSchema>;
export type WikiForm = z.input<typeof wikiSaveSchema>;

export const WIKI_STATES = ['published', 'draft'] as const;
export const WIKI_STATE_TABLE = enumTable(WIKI_STATES, (s) => `content:wiki.states.${s}`, { published: 'success', draft: 'neutral' });
export const wikiListQuery = listQuery({ title: textFilter(), category: enumFilter(WIKI_CATEGORIES), state: enumFilter(WIKI_STATES) });
export type WikiListQuery = z.output<typeof wikiListQuery>;

/** `PUT …/:id/publish`: publish or take back. */
export const wikiPublishSchema = z.object({ published: z.boolean(), version: versionField.optional() });

export interface WikiRow {
  id: string;
  title: string;
  category: WikiCategory;
  coverFileId: string | null;
  published: boolean;
  publishedAt: string | null;
  textLength: number;
  updatedAt: string;
  updatedByName: string | null;
  version: number;
}

/** An entry with its (sanitised) text. */
export interface WikiEntry extends WikiRow {
  content: string;
}

/** A wiki entry of the list (WikiRow; the OpenAPI document's schema). */
export const wikiRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  category: z.enum(WIKI_CATEGORIES),
  coverFileId: z.string().nullable(),
  published: z.boolean(),
  publishedAt: z.string().nullable(),
  textLength: z.number().int(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
  version: z.number().int(),
});

/** An entry with its sanitised HTML (WikiEntry). */
export const wikiEntrySchema = wikiRowSchema.extend({ content: z.string().describe('Sanitised HTML') });
