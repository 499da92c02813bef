/** Longest side of a compressed image in px: enough for any screen the console shows it on. */
export const COMPRESS_MAX_SIDE = 1920;
/** JPEG quality of compressed images. */
export const COMPRESS_QUALITY = 0.8;

export interface CompressOptions {
  maxSide?: number;
  quality?: number;
}

/** Scales (width, height) down to fit maxSide, keeping the ratio; never scales up. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

type Drawable = CanvasImageSource & { width: number; height: number; close?: () => void };

async function decode(file: Blob): Promise<Drawable> {
  if (typeof createImageBitmap === 'function') return createImageBitmap(file);
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return img;
  } finally {
    URL.revokeObjectURL(url);
  }
}

function renamed(name: string, type: string): string {
  if (type !== 'image/jpeg' || /\.jpe?g$/i.test(name)) return name;
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}.jpg`;
}

/**
 * Compresses an image in the browser with a canvas (docs/product-rules.md#uploads: images over 100 KB are compressed):
 * scales it to fit COMPRESS_MAX_SIDE and re-encodes JPEG at COMPRESS_QUALITY (PNG stays PNG to keep
 * transparency). Best effort: answers the original file when it cannot decode or the result is not smaller.
 */
export async function compressImage(file: File, { maxSide = COMPRESS_MAX_SIDE, quality = COMPRESS_QUALITY }: CompressOptions = {}): Promise<File> {
  let image: Drawable | undefined;
  try {
    image = await decode(file);
    const { width, height } = fitWithin(image.width, image.height, maxSide);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return file;
    const type = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
    if (type === 'image/jpeg') {
      // JPEG has no alpha: paint white so transparent pixels do not turn black.
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
    }
    ctx.drawImage(image, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], renamed(file.name, type), { type, lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    image?.close?.();
  }
}
