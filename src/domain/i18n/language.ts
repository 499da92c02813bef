import { DEFAULT_LOCALE, LOCALES, type Locale } from '../constants';

/** Maps an accept-language header or stored choice to one of the product's locales (docs/product-rules.md#languages). */
export function toLocale(value: string | null | undefined): Locale {
  if (!value) return DEFAULT_LOCALE;
  for (const part of value.split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase().replace('-', '_');
    if ((LOCALES as readonly string[]).includes(tag)) return tag as Locale;
    if (tag.startsWith('zh_tw') || tag.startsWith('zh_hk') || tag.startsWith('zh_hant')) return 'zh_tw';
    if (tag.startsWith('zh')) return 'zh_cn';
    if (tag.startsWith('en')) return 'en_us';
  }
  return DEFAULT_LOCALE;
}

/** Missing keys fall back to zh_tw, then zh_cn (docs/product-rules.md#languages). */
export const FALLBACK_LOCALES: Locale[] = ['zh_tw', 'zh_cn'];
