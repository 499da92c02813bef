import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SharedStrings } from '../../../server/lib/spreadsheet/sheet-scanner';
import { FirstRows } from '../../../server/modules/physique-results/physique-import.service';

describe('tables an import keeps off the JS heap', () => {
  it('SharedStrings gives back every string as pushed, across growth of its buffers', () => {
    const strings = new SharedStrings();
    const pushed: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      const s = i % 3 === 0 ? `学生${i}` : i % 3 === 1 ? `B${String(i).padStart(18, '0')}` : i % 100 === 2 ? '' : `𠮷 ${i} é`;
      strings.push(s);
      pushed.push(s);
    }
    expect(strings.length).toBe(pushed.length);
    for (let i = 0; i < pushed.length; i++) if (strings.get(i) !== pushed[i]) expect(strings.get(i)).toBe(pushed[i]);
  });

  it('FirstRows keeps the first row of each student id and knows no other', () => {
    const rows = new FirstRows();
    const ids = Array.from({ length: 5000 }, () => randomUUID());
    ids.forEach((id, i) => {
      if (rows.claim(id, i + 2) !== undefined) expect(rows.claim(id, i + 2)).toBeUndefined();
    });
    ids.forEach((id, i) => {
      if (rows.get(id) !== i + 2) expect(rows.get(id)).toBe(i + 2);
    });
    // A second claim answers the first row and keeps it.
    expect(rows.claim(ids[10], 99_999)).toBe(12);
    expect(rows.get(ids[10])).toBe(12);
    expect(rows.get(randomUUID())).toBeUndefined();
    expect(rows.get('00000000-0000-0000-0000-000000000000')).toBeUndefined();
    expect(() => rows.claim('not-a-uuid', 3)).toThrow();
  });
});
