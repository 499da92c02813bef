import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPRESS_MAX_SIDE, compressImage, fitWithin } from '@/components/upload/compress-image';

describe('fitWithin', () => {
  it('scales the longest side down to the limit, keeping the ratio', () => {
    expect(fitWithin(4000, 3000, 1920)).toEqual({ width: 1920, height: 1440 });
    expect(fitWithin(1000, 3000, 1500)).toEqual({ width: 500, height: 1500 });
  });
  it('never scales up', () => {
    expect(fitWithin(800, 600, 1920)).toEqual({ width: 800, height: 600 });
  });
});

describe('compressImage', () => {
  const drawImage = vi.fn();
  const fillRect = vi.fn();
  let outputSize = 1000;
  let canvasSize: { width: number; height: number } | undefined;

  beforeEach(() => {
    outputSize = 1000;
    drawImage.mockClear();
    fillRect.mockClear();
    // jsdom has neither image decoding nor a canvas: fake both.
    vi.stubGlobal('createImageBitmap', vi.fn(async () => ({ width: 4000, height: 3000, close: vi.fn() })));
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
      () => ({ drawImage, fillRect, fillStyle: '' }) as unknown as CanvasRenderingContext2D,
    );
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (this: HTMLCanvasElement, cb, type) {
      canvasSize = { width: this.width, height: this.height };
      cb(new Blob([new Uint8Array(outputSize)], { type }));
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const photo = (name: string, type: string, size: number) => new File([new Uint8Array(size)], name, { type, lastModified: 42 });

  it('re-encodes a large JPEG smaller, scaled to the maximum side', async () => {
    const out = await compressImage(photo('run.jpg', 'image/jpeg', 500_000));
    expect(out.size).toBe(1000);
    expect(out.type).toBe('image/jpeg');
    expect(out.name).toBe('run.jpg');
    expect(out.lastModified).toBe(42);
    expect(canvasSize).toEqual({ width: COMPRESS_MAX_SIDE, height: 1440 });
    expect(drawImage).toHaveBeenCalledWith(expect.anything(), 0, 0, 1920, 1440);
    expect(fillRect).toHaveBeenCalled();
  });

  it('keeps PNG as PNG (transparency) without a white fill', async () => {
    const out = await compressImage(photo('logo.png', 'image/png', 300_000));
    expect(out.type).toBe('image/png');
    expect(fillRect).not.toHaveBeenCalled();
  });

  it('answers the original when the result is not smaller or decoding fails', async () => {
    outputSize = 600_000;
    const big = photo('a.jpg', 'image/jpeg', 500_000);
    expect(await compressImage(big)).toBe(big);
    vi.stubGlobal('createImageBitmap', vi.fn(async () => Promise.reject(new Error('broken'))));
    expect(await compressImage(big)).toBe(big);
  });
});
