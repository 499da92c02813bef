import { describe, expect, it } from 'vitest';
import { IMAGE_COMPRESS_ABOVE, UPLOAD_LIMIT } from '@/domain/constants';
import { acceptAttribute, checkUpload, fileExtension, formatBytes, isExcelFileName, shouldCompress, UPLOAD_KINDS, UPLOAD_RULES } from '@/domain/uploads/rules';

const file = (name: string, size: number, type = '') => ({ name, size, type });

describe('upload rules (docs/product-rules.md#uploads)', () => {
  it('byte ceilings come from the named constants', () => {
    expect(UPLOAD_RULES.image.maxBytes).toBe(5_242_880);
    expect(UPLOAD_RULES.video.maxBytes).toBe(524_288_000);
    expect(UPLOAD_RULES.audio.maxBytes).toBe(52_428_800);
    expect(UPLOAD_RULES.gif.maxBytes).toBe(10_485_760);
    expect(UPLOAD_RULES.facePhoto.maxBytes).toBe(UPLOAD_LIMIT.facePhoto);
  });

  it('images: PNG/JPG up to 5242880 bytes', () => {
    expect(checkUpload('image', file('a.png', 1000, 'image/png'))).toBeNull();
    expect(checkUpload('image', file('a.JPG', 1000, 'image/jpeg'))).toBeNull();
    expect(checkUpload('image', file('a.jpeg', UPLOAD_LIMIT.image))).toBeNull();
    expect(checkUpload('image', file('a.jpeg', UPLOAD_LIMIT.image + 1))).toBe('errors:fileTooLarge');
    expect(checkUpload('image', file('a.gif', 10, 'image/gif'))).toBe('errors:fileFormat');
    expect(checkUpload('image', file('a.png', 10, 'text/plain'))).toBe('errors:fileFormat');
    expect(checkUpload('image', file('png', 10))).toBe('errors:fileFormat');
  });

  it('video mp4, audio mp3, gif', () => {
    expect(checkUpload('video', file('v.mp4', 1, 'video/mp4'))).toBeNull();
    expect(checkUpload('video', file('v.mov', 1, 'video/quicktime'))).toBe('errors:fileFormat');
    expect(checkUpload('video', file('v.mp4', UPLOAD_LIMIT.video + 1))).toBe('errors:fileTooLarge');
    expect(checkUpload('audio', file('a.mp3', 1, 'audio/mpeg'))).toBeNull();
    expect(checkUpload('audio', file('a.wav', 1))).toBe('errors:fileFormat');
    expect(checkUpload('gif', file('g.gif', UPLOAD_LIMIT.gif + 1))).toBe('errors:fileTooLarge');
  });

  it('imports accept only .xlsx, with the onlyExcel message', () => {
    expect(checkUpload('excel', file('s.xlsx', 9e9))).toBeNull();
    expect(checkUpload('excel', file('s.xls', 10))).toBe('errors:onlyExcel');
    expect(checkUpload('excel', file('s.csv', 10, 'text/csv'))).toBe('errors:onlyExcel');
    expect(isExcelFileName('Students.XLSX')).toBe(true);
    expect(isExcelFileName('students.csv')).toBe(false);
  });

  it('e-stamps are PNG under 2M; face photos png/jpg/jpeg up to 10M', () => {
    expect(checkUpload('estamp', file('s.jpg', 10))).toBe('errors:fileFormat');
    expect(checkUpload('estamp', file('s.png', 2 * 1024 * 1024 + 1))).toBe('errors:fileTooLarge');
    expect(checkUpload('facePhoto', file('13800000000.jpeg', 10 * 1024 * 1024))).toBeNull();
    expect(UPLOAD_RULES.estamp.maxCount).toBe(10);
    expect(UPLOAD_RULES.stylePhoto.maxCount).toBe(100);
  });

  it('photos over 100 KB are compressed, face photos included; stamps never', () => {
    expect(shouldCompress('image', IMAGE_COMPRESS_ABOVE)).toBe(false);
    expect(shouldCompress('image', IMAGE_COMPRESS_ABOVE + 1)).toBe(true);
    expect(shouldCompress('facePhoto', 5_000_000)).toBe(true);
    expect(shouldCompress('estamp', 1_000_000)).toBe(false);
  });

  it('accept attribute and extension helper', () => {
    expect(acceptAttribute('excel')).toBe('.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(acceptAttribute('eventFile')).toBeUndefined();
    expect(fileExtension('a.b.PNG')).toBe('png');
    expect(fileExtension('noext')).toBe('');
    for (const kind of UPLOAD_KINDS) expect(UPLOAD_RULES[kind]).toBeDefined();
  });
});

describe('formatBytes', () => {
  it('names the ceilings the way the hints show them', () => {
    expect(formatBytes(UPLOAD_LIMIT.image)).toBe('5MB');
    expect(formatBytes(UPLOAD_LIMIT.video)).toBe('500MB');
    expect(formatBytes(UPLOAD_LIMIT.audio)).toBe('50MB');
    expect(formatBytes(IMAGE_COMPRESS_ABOVE)).toBe('100KB');
    expect(formatBytes(1536)).toBe('1.5KB');
    expect(formatBytes(512)).toBe('512B');
  });
});
