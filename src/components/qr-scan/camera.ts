import { decodeFrame } from './decode-frame';

/** Why the camera cannot scan: each has its message (testSheets:scan.<problem>); the teacher then types the 学籍号. */
export type CameraProblem = 'noCamera' | 'denied' | 'unsupported' | 'failed';

/** The browser's refusal (a DOMException's name) as one of the problems a person can act on. */
export function cameraProblem(error: unknown): CameraProblem {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String((error as { name: unknown }).name) : '';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'noCamera';
  if (name === 'NotAllowedError' || name === 'PermissionDeniedError' || name === 'SecurityError') return 'denied';
  if (name === 'TypeError' || name === 'NotSupportedError') return 'unsupported';
  return 'failed';
}

/**
 * The rear camera (facingMode environment: a phone held over a card), or the only camera a laptop has. Without
 * `mediaDevices` (a page served over plain HTTP) it is refused as unsupported.
 */
export async function openRearCamera(): Promise<MediaStream> {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('no mediaDevices'), { name: 'NotSupportedError' });
  return navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } } });
}

export function stopCamera(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** The part of the Barcode Detection API used here (not yet in TypeScript's DOM types). */
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?(): Promise<string[]>;
}

/** Reads one frame of the video: the text of a QR code in it, or null. */
export type FrameReader = (video: HTMLVideoElement) => Promise<string | null>;

/** Frames are scaled to at most this width for jsQR: enough for a card held at reading distance, and quick on a phone. */
const MAX_FRAME_WIDTH = 640;

/**
 * The browser's own `BarcodeDetector` where it reads QR codes (Chrome on Android, Edge), else frames drawn on a canvas
 * and decoded with jsQR.
 */
export async function frameReader(): Promise<FrameReader> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector) {
    try {
      const formats = (await Detector.getSupportedFormats?.()) ?? ['qr_code'];
      if (formats.includes('qr_code')) {
        const detector = new Detector({ formats: ['qr_code'] });
        return async (video) => (await detector.detect(video))[0]?.rawValue || null;
      }
    } catch {
      // A detector that fails to start: jsQR below.
    }
  }
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async (video) => {
    if (!context || !video.videoWidth) return null;
    const scale = Math.min(1, MAX_FRAME_WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    return decodeFrame(context.getImageData(0, 0, canvas.width, canvas.height));
  };
}
