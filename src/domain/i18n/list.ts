import type { Locale } from '../constants';
import { toLocale } from './language';

/** Between the items of a list: 、 in Chinese ('1分钟跳绳、1分钟仰卧起坐'), a comma in English. */
const SEPARATOR: Record<Locale, string> = { zh_cn: '、', zh_tw: '、', en_us: ', ' };

/**
 * Several names as one list in the reader's language (items, classes, people): the one list formatter of the product,
 * so no screen or export runs names together ('1分钟跳绳1分钟仰卧起坐'). Written out rather than Intl.ListFormat, whose
 * 'unit' type joins Chinese with nothing and whose conjunction adds 和 before the last item in some ICU builds.
 */
export function formatList(items: readonly string[], locale: string): string {
  return items.filter((i) => i !== '').join(SEPARATOR[toLocale(locale)]);
}
