import { Readable } from 'node:stream';
import { crc32, createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';

/** A part of a zip archive as listed by its central directory. */
export interface ZipEntry {
  /** Name as stored (forward slashes, no leading slash). */
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
}

/** The archive uses something this reader does not implement (zip64, encryption, an exotic compression): callers fall back. */
export class ZipUnsupportedError extends Error {
  override readonly name = 'ZipUnsupportedError';
}
/** The bytes are not a readable zip archive, or a part inflates beyond its limit. */
export class ZipFormatError extends Error {
  override readonly name = 'ZipFormatError';
}
export class ZipTooLargeError extends Error {
  override readonly name = 'ZipTooLargeError';
}

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** True when the buffer starts like a zip archive (an .xlsx); legacy .xls and encrypted workbooks are OLE files instead. */
export function looksLikeZip(buf: Buffer): boolean {
  return buf.length >= 22 && buf.readUInt32LE(0) === LOC_SIG;
}

/** Reads the central directory. Keys are lower-cased part names: OOXML part names are case-insensitive. */
export function readZipDirectory(buf: Buffer): Map<string, ZipEntry> {
  // The end record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipFormatError('zip end of central directory not found');
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new ZipUnsupportedError('zip64 archive');
  if (cdOffset + cdSize > buf.length) throw new ZipFormatError('zip central directory out of bounds');

  const entries = new Map<string, ZipEntry>();
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CEN_SIG) throw new ZipFormatError('bad zip central directory entry');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const crc32 = buf.readUInt32LE(p + 16);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localHeaderOffset = buf.readUInt32LE(p + 42);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localHeaderOffset === 0xffffffff) throw new ZipUnsupportedError('zip64 entry');
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen).replace(/\\/g, '/').replace(/^\/+/, '');
    entries.set(name.toLowerCase(), { name, method, flags, crc32, compressedSize, size, localHeaderOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function entryData(buf: Buffer, e: ZipEntry): Buffer {
  if (e.flags & 1) throw new ZipUnsupportedError(`encrypted zip entry ${e.name}`);
  if (e.method !== STORED && e.method !== DEFLATED) throw new ZipUnsupportedError(`zip compression method ${e.method}`);
  const p = e.localHeaderOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== LOC_SIG) throw new ZipFormatError(`bad local header of ${e.name}`);
  // Sizes come from the central directory: local headers of streamed archives (flag bit 3) hold zeros.
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  const end = start + e.compressedSize;
  if (end > buf.length) throw new ZipFormatError(`zip entry ${e.name} out of bounds`);
  return buf.subarray(start, end);
}

/** Whole content of a (small) part, refusing to inflate beyond maxBytes (zip bombs). */
export function readZipEntry(buf: Buffer, e: ZipEntry, maxBytes: number): Buffer {
  const data = entryData(buf, e);
  if (e.method === STORED) {
    if (data.length > maxBytes) throw new ZipTooLargeError(`${e.name} exceeds ${maxBytes} bytes`);
    return data;
  }
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipTooLargeError(`${e.name} exceeds ${maxBytes} bytes`);
    throw new ZipFormatError(`cannot inflate ${e.name}: ${(err as Error).message}`);
  }
}

/** Content of a part in chunks, so a large sheet is never held inflated in memory at once. */
export async function* streamZipEntry(buf: Buffer, e: ZipEntry, maxBytes: number, chunkSize = 256 * 1024): AsyncGenerator<Buffer> {
  const data = entryData(buf, e);
  if (e.method === STORED) {
    if (data.length > maxBytes) throw new ZipTooLargeError(`${e.name} exceeds ${maxBytes} bytes`);
    for (let i = 0; i < data.length; i += chunkSize) yield data.subarray(i, Math.min(i + chunkSize, data.length));
    return;
  }
  const inflate = createInflateRaw({ chunkSize });
  // Fed in slices through pipe() so backpressure holds: one write of the whole part would inflate all of it into
  // the stream's queue at once (zlib finishes a written chunk whatever the reader's pace).
  const source = Readable.from(slices(data, 64 * 1024), { objectMode: false });
  source.pipe(inflate);
  let total = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw new ZipTooLargeError(`${e.name} exceeds ${maxBytes} bytes`);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof ZipTooLargeError) throw err;
    throw new ZipFormatError(`cannot inflate ${e.name}: ${(err as Error).message}`);
  } finally {
    source.unpipe(inflate);
    source.destroy();
    inflate.destroy();
  }
}

function* slices(data: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, Math.min(i + size, data.length));
}

/** Order of parts in a rewritten package: content types and relationships first, shared strings before the sheets (as Excel writes them), so streaming readers meet what they need first. */
function partRank(name: string): number {
  const n = name.toLowerCase();
  if (n === '[content_types].xml') return 0;
  if (n === '_rels/.rels') return 1;
  if (n.startsWith('docprops/')) return 2;
  if (n.endsWith('workbook.xml')) return 3;
  if (n.includes('_rels/')) return 4;
  if (n.endsWith('sharedstrings.xml')) return 6;
  if (n.includes('worksheets/')) return 7;
  return 5;
}

/** A part to write into a zip archive. */
export interface ZipPart {
  name: string;
  data: Buffer;
}

/** Writes a zip archive (deflate with zlib, or stored with level 0); parts keep the given order. */
export function writeZip(parts: readonly ZipPart[], level = 6): Buffer {
  const method = level === 0 ? STORED : DEFLATED;
  const chunks: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const content = part.data;
    const data = method === STORED ? content : deflateRawSync(content, { level });
    const crc = crc32(content);
    const name = Buffer.from(part.name, 'utf8');
    if (offset > 0xffffffff || data.length > 0xffffffff || content.length > 0xffffffff) throw new ZipUnsupportedError('archive needs zip64');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOC_SIG, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0x00210000, 10); // DOS time 00:00:00, date 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CEN_SIG, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    chunks.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cdSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD_SIG, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...centrals, end]);
}

/**
 * Re-deflates every part of a zip archive with zlib and puts the parts in Excel's order (`transform` may rewrite a part).
 * SheetJS's own JavaScript deflate makes 2.5× larger files in about the time zlib needs; its stored output plus this is smaller and no slower.
 */
export function recompressZip(buf: Buffer, level = 6, transform: (name: string, data: Buffer) => Buffer = (_, data) => data): Buffer {
  const entries = [...readZipDirectory(buf).values()].sort((a, b) => partRank(a.name) - partRank(b.name));
  return writeZip(entries.map((e) => ({ name: e.name, data: transform(e.name, readZipEntry(buf, e, Number.MAX_SAFE_INTEGER)) })), level);
}
