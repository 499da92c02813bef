import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/** A real PNG of the given size in pixels (flat colour: small). */
export const png = (width = 64, height = 64) => sharp({ create: { width, height, channels: 4, background: '#3b82f6' } }).png().toBuffer();

/** A JPEG of random pixels at high quality: well over 100 KB, and compressible. */
export const noisyJpeg = (side = 800) =>
  sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();

/** Bytes that start like the format and are padded to `size` (enough for size and type checks). */
export function padded(head: Buffer | string, size: number): Buffer {
  const start = typeof head === 'string' ? Buffer.from(head, 'binary') : head;
  const out = Buffer.alloc(size);
  start.copy(out);
  return out;
}

export const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const GIF_HEAD = Buffer.from('GIF89a', 'ascii');
export const MP3_HEAD = Buffer.from('ID3\x04\x00\x00', 'binary');
export const PDF_HEAD = Buffer.from('%PDF-1.7\n', 'ascii');
/** An MP4 `ftyp` box (isom brand) followed by random bytes. */
export const mp4 = (size: number) => {
  const out = randomBytes(size);
  Buffer.from([0, 0, 0, 0x20]).copy(out, 0);
  Buffer.from('ftypisom', 'ascii').copy(out, 4);
  return out;
};

export const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
export const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
);

/** A multipart/form-data body with one file part. */
export function multipartBody(name: string, bytes: Buffer, type = 'application/octet-stream') {
  const boundary = `----tiyu${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}
