import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMIT } from '@/domain/constants';
import { checkFile, checkImageSize, FILE_PURPOSES, PURPOSE_LIMIT, purposeCeiling, purposeExtensions, purposeMaxBytes } from '@/domain/uploads/rules';
import { sniffFileType } from '@/domain/uploads/signatures';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('file types by content', () => {
  it.each([
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['gif', bytes('GIF89a')],
    ['webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ')],
    ['mp4', bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0])],
    ['mp3', bytes('ID3', [4, 0, 0])],
    ['mp3', bytes([0xff, 0xfb, 0x90, 0x64])],
    ['pdf', bytes('%PDF-1.7')],
    ['zip', bytes([0x50, 0x4b, 0x03, 0x04])],
    ['svg', bytes('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['svg', bytes('\n  <svg onload="alert(1)">')],
    ['html', bytes('<!DOCTYPE html><html>')],
    ['html', bytes('<script>alert(1)</script>')],
    ['unknown', bytes('hello')],
    ['unknown', bytes()],
  ] as const)('%s', (type, head) => {
    expect(sniffFileType(head)).toBe(type);
  });

  it('a QuickTime movie is not an MP4', () => {
    expect(sniffFileType(bytes([0, 0, 0, 0x14], 'ftypqt  '))).toBe('unknown');
  });
});

describe('purpose rules (docs/product-rules.md#uploads, #limits)', () => {
  it('format ceilings and per-purpose ceilings', () => {
    expect(purposeCeiling('image', 'png')).toBe(UPLOAD_LIMIT.image);
    expect(purposeCeiling('image', 'gif')).toBe(UPLOAD_LIMIT.gif);
    expect(purposeCeiling('audio', 'mp3')).toBe(UPLOAD_LIMIT.audio);
    expect(purposeCeiling('video', 'mp4')).toBe(UPLOAD_LIMIT.video);
    expect(purposeCeiling('face', 'jpeg')).toBe(10 * 1024 * 1024);
    expect(purposeCeiling('stamp', 'png')).toBe(2 * 1024 * 1024);
    expect(purposeCeiling('stamp', 'jpeg')).toBeNull();
    expect(purposeMaxBytes('attachment')).toBe(PURPOSE_LIMIT.attachment);
    expect(purposeMaxBytes('lessonVideo')).toBe(524_288_000);
  });

  it('markup is never accepted, for any purpose', () => {
    for (const purpose of FILE_PURPOSES) {
      expect(checkFile(purpose, 'svg', 10)).toBe('errors:fileFormat');
      expect(checkFile(purpose, 'html', 10)).toBe('errors:fileFormat');
      expect(checkFile(purpose, 'unknown', 10)).toBe('errors:fileFormat');
    }
  });

  it('size over the ceiling is refused with the size message', () => {
    expect(checkFile('cover', 'png', PURPOSE_LIMIT.cover)).toBeNull();
    expect(checkFile('cover', 'png', PURPOSE_LIMIT.cover + 1)).toBe('errors:fileTooLarge');
  });

  it('1:1 stamps and covers, a pixel of tolerance', () => {
    expect(checkImageSize('stamp', 400, 400)).toBeNull();
    expect(checkImageSize('stamp', 400, 398)).toBeNull();
    expect(checkImageSize('stamp', 400, 300)).toBe('errors:imageDimensions');
    expect(checkImageSize('banner', 1200, 300)).toBeNull();
  });

  it('offers the extensions of the accepted formats in the picker', () => {
    expect(purposeExtensions('stamp')).toEqual(['png']);
    expect(purposeExtensions('lessonVideo')).toEqual(['mp4']);
  });
});
