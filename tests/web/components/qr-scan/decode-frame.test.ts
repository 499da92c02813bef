import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { testCardCode } from '@/domain/test-day/test-card';
import { cameraProblem } from '@/components/qr-scan/camera';
import { decodeFrame, type Frame } from '@/components/qr-scan/decode-frame';

/** A QR code's module matrix drawn as an RGBA frame: `px` pixels a module, a quiet zone of 4 modules, on a wider grey frame. */
function frameOf(text: string, { px = 4, grey = 200 } = {}): Frame {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = (modules.size + 8) * px;
  const width = side + 60;
  const height = side + 40;
  const data = new Uint8ClampedArray(width * height * 4).fill(grey);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const [r, c] = [Math.floor(y / px) - 4, Math.floor(x / px) - 4];
      const dark = r >= 0 && c >= 0 && r < modules.size && c < modules.size && modules.get(r, c);
      const at = ((y + 20) * width + (x + 30)) * 4;
      data.fill(dark ? 0 : 255, at, at + 3);
    }
  }
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { data, width, height };
}

describe('decoding a camera frame (jsQR path)', () => {
  it('reads a test card’s code back', () => {
    const code = testCardCode('5f0c5a52-3b7e-4c1b-9a4e-0c2f1d3e4b5a', 'G320102201209290752');
    expect(decodeFrame(frameOf(code))).toBe(code);
    expect(decodeFrame(frameOf(code, { px: 2 }))).toBe(code);
  });

  it('reads nothing from a frame without a code', () => {
    const blank = new Uint8ClampedArray(200 * 200 * 4).fill(255);
    expect(decodeFrame({ data: blank, width: 200, height: 200 })).toBeNull();
  });
});

describe('why the camera cannot scan', () => {
  it('tells no camera, refusal and an unsupported browser apart', () => {
    expect(cameraProblem(new DOMException('x', 'NotFoundError'))).toBe('noCamera');
    expect(cameraProblem(new DOMException('x', 'OverconstrainedError'))).toBe('noCamera');
    expect(cameraProblem(new DOMException('x', 'NotAllowedError'))).toBe('denied');
    expect(cameraProblem(Object.assign(new Error('x'), { name: 'NotSupportedError' }))).toBe('unsupported');
    expect(cameraProblem(new DOMException('x', 'NotReadableError'))).toBe('failed');
  });
});
