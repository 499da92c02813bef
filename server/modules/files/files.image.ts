import { createRequire } from 'node:module';
import type * as SharpModule from 'sharp';
import { IMAGE_COMPRESS_ABOVE } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { checkImageSize, COMPRESSED_SIDE, PURPOSE_RULES, THUMBNAIL_SIDE, type FilePurpose } from '@/domain/uploads/rules';
import type { SniffedType } from '@/domain/uploads/signatures';
import { AppError } from '../../lib/app-error';

type Sharp = SharpModule.Sharp;
let sharpModule: typeof SharpModule.default | undefined;
/** sharp (native libvips) loads with the first image, not at start-up. */
const sharp: typeof SharpModule.default = ((...args: Parameters<typeof SharpModule.default>) =>
  (sharpModule ??= createRequire(import.meta.url)('sharp') as typeof SharpModule.default)(...args)) as typeof SharpModule.default;

export interface ProcessedImage {
  /** The bytes to store: the original, or a smaller re-encoding of it. */
  bytes: Buffer;
  width: number;
  height: number;
  /** A small WebP (alpha kept) for lists and upload fields. */
  thumbnail: Buffer;
}

/** Re-encodes in the same format (PNG stays PNG to keep transparency), EXIF orientation applied, metadata dropped. */
function reencode(image: Sharp, type: SniffedType): Sharp {
  const fitted = image.rotate().resize({ width: COMPRESSED_SIDE, height: COMPRESSED_SIDE, fit: 'inside', withoutEnlargement: true });
  if (type === 'jpeg') return fitted.jpeg({ quality: 80, mozjpeg: true });
  if (type === 'webp') return fitted.webp({ quality: 80 });
  return fitted.png({ compressionLevel: 9, palette: true, quality: 90, effort: 7 });
}

/**
 * Decodes an image fully (a truncated or corrupt one is "image damaged"), checks the purpose's aspect
 * rule on the decoded size, compresses images over 100 KB when the purpose asks for it, and makes the
 * thumbnail.
 */
export async function processImage(purpose: FilePurpose, type: SniffedType, input: Buffer): Promise<ProcessedImage> {
  const open = () => sharp(input, { failOn: 'error', animated: type === 'gif' });
  let width: number;
  let height: number;
  let thumbnail: Buffer;
  try {
    const meta = await open().metadata();
    // Orientations 5–8 swap width and height.
    const swap = (meta.orientation ?? 1) >= 5;
    width = (swap ? meta.height : meta.width) ?? 0;
    height = (swap ? meta.width : meta.height) ?? 0;
    // Making the thumbnail decodes every pixel: this is what finds a truncated file.
    thumbnail = await sharp(input, { failOn: 'error' })
      .rotate()
      .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
  } catch {
    throw new AppError(400, ERR.imageDamaged);
  }
  const problem = checkImageSize(purpose, width, height);
  if (problem) throw new AppError(400, problem);

  let bytes = input;
  if (PURPOSE_RULES[purpose].compress && type !== 'gif' && input.length > IMAGE_COMPRESS_ABOVE) {
    const { data, info } = await reencode(open(), type).toBuffer({ resolveWithObject: true });
    if (data.length < input.length) {
      bytes = data;
      width = info.width;
      height = info.height;
    }
  }
  return { bytes, width, height, thumbnail };
}
