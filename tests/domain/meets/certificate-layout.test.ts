import { describe, expect, it } from 'vitest';
import { DEFAULT_CERTIFICATE_FIELDS, DEFAULT_CERTIFICATE_STAMP, PAGE_MM, stampCovers } from '@/domain/meets/documents';

describe('a new certificate template’s layout (docs/product-rules.md#meet-documents)', () => {
  it('prints the date and every other text clear of the stamp, on the page', () => {
    const sample: Record<string, string> = { name: '欧阳思思', className: '七年级2班', meet: '2026年春季田径运动会', event: '男子组 100米', place: '第1名', mark: '12.34秒', date: '2026年11月24日' };
    for (const f of DEFAULT_CERTIFICATE_FIELDS) {
      expect(stampCovers(f, sample[f.field] ?? '', DEFAULT_CERTIFICATE_STAMP), f.field).toBe(false);
    }
    const { stampY, stampSize } = DEFAULT_CERTIFICATE_STAMP;
    expect(stampY + stampSize / 2).toBeLessThan(PAGE_MM.landscape[1]);
  });

  it('knows a text under the stamp when it sees one', () => {
    // The old layout: the date's baseline inside the stamp.
    expect(stampCovers({ x: 225, y: 185, size: 12, align: 'center' }, '2026年11月24日', { stampX: 225, stampY: 170, stampSize: 40 })).toBe(true);
  });
});
