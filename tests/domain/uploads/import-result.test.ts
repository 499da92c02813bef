import { describe, expect, it } from 'vitest';
import { fileNameFromContentDisposition, parseImportCounts } from '@/domain/uploads/import-result';

describe('parseImportCounts (docs/product-rules.md#import-files)', () => {
  it('reads the second and third parts of the name', () => {
    expect(parseImportCounts('x_12_3.xlsx')).toEqual({ success: 12, failure: 3 });
    expect(parseImportCounts('学生导入_0_0.xlsx')).toEqual({ success: 0, failure: 0 });
    expect(parseImportCounts('x_12_3')).toEqual({ success: 12, failure: 3 });
  });

  it('decodes URL-encoded names and tolerates underscores in the prefix', () => {
    expect(parseImportCounts('%E5%AD%A6%E7%94%9F_7_1.xlsx')).toEqual({ success: 7, failure: 1 });
    expect(parseImportCounts('score_import_40_2.xlsx')).toEqual({ success: 40, failure: 2 });
  });

  it('returns null when the name carries no counts', () => {
    expect(parseImportCounts('result.xlsx')).toBeNull();
    expect(parseImportCounts('a_b_c.xlsx')).toBeNull();
    expect(parseImportCounts('')).toBeNull();
  });
});

describe('fileNameFromContentDisposition', () => {
  it('prefers filename* and decodes it', () => {
    expect(fileNameFromContentDisposition(`attachment; filename="fallback_1_1.xlsx"; filename*=UTF-8''%E5%AF%BC%E5%85%A5_5_2.xlsx`)).toBe('导入_5_2.xlsx');
  });
  it('reads a quoted or bare filename', () => {
    expect(fileNameFromContentDisposition('attachment; filename="r_3_4.xlsx"')).toBe('r_3_4.xlsx');
    expect(fileNameFromContentDisposition('attachment; filename=r_3_4.xlsx')).toBe('r_3_4.xlsx');
    expect(fileNameFromContentDisposition('attachment')).toBeNull();
    expect(fileNameFromContentDisposition(null)).toBeNull();
  });
});
