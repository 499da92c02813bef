import { pinyin } from 'pinyin-pro';

/** A page the menu search offers (docs/product-rules.md#menu-search). */
export interface SearchPage {
  path: string;
  /** The name in the current language. */
  label: string;
  /** The groups above it, in the current language (shown beside the name, matched too). */
  trail: string[];
  /** The stored Chinese name (for pinyin when the console is in English). */
  zhName?: string;
}

interface Prepared {
  page: SearchPage;
  texts: string[];
  initials: string[];
  spelled: string[];
  groups: string;
}

const HAN = /\p{Script=Han}/u;
const squash = (s: string) => s.toLowerCase().replace(/\s+/g, '');

/** The pinyin initials (班级管理 → bjgl) and the spelled pinyin (banjiguanli) of a Chinese text; other letters kept. */
export function pinyinKeys(text: string): { initials: string; spelled: string } {
  if (!HAN.test(text)) return { initials: '', spelled: '' };
  const initials = pinyin(text, { pattern: 'first', toneType: 'none', type: 'array', nonZh: 'consecutive' }).join('');
  const spelled = pinyin(text, { toneType: 'none', type: 'array', nonZh: 'consecutive' }).join('');
  return { initials: squash(initials), spelled: squash(spelled) };
}

/** Initials of the words of a Latin name: "Class Management" → cm. */
const wordInitials = (s: string) =>
  s
    .split(/[\s/&,-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toLowerCase())
    .join('');

export function preparePages(pages: readonly SearchPage[]): Prepared[] {
  return pages.map((page) => {
    const names = [...new Set([page.label, page.zhName].filter((n): n is string => !!n))];
    const keys = names.map(pinyinKeys);
    return {
      page,
      texts: names.map(squash),
      initials: [...keys.map((k) => k.initials), ...names.filter((n) => !HAN.test(n)).map(wordInitials)].filter(Boolean),
      spelled: keys.map((k) => k.spelled).filter(Boolean),
      groups: squash(page.trail.join('')),
    };
  });
}

/** How well a page matches (0: not at all): its name first, then pinyin initials, spelled pinyin, its groups' names. */
function score(p: Prepared, q: string): number {
  if (p.texts.some((t) => t === q)) return 100;
  if (p.texts.some((t) => t.startsWith(q))) return 90;
  if (p.texts.some((t) => t.includes(q))) return 80;
  if (p.initials.some((t) => t === q)) return 75;
  if (p.initials.some((t) => t.startsWith(q))) return 70;
  if (p.initials.some((t) => t.includes(q))) return 60;
  if (p.spelled.some((t) => t.startsWith(q))) return 50;
  if (p.spelled.some((t) => t.includes(q))) return 40;
  if (p.groups.includes(q)) return 20;
  return 0;
}

/** The pages matching `query`, best first (the menu's order among equals); all of them for an empty query. */
export function searchPages(prepared: readonly Prepared[], query: string): SearchPage[] {
  const q = squash(query);
  if (!q) return prepared.map((p) => p.page);
  return prepared
    .map((p, i) => ({ p, i, s: score(p, q) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.p.page);
}
