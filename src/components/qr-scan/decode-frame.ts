import jsQR from 'jsqr';

/** A camera frame's pixels, RGBA row by row: an ImageData, or anything shaped like one. */
export interface Frame {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * The text of the QR code in a frame, or null when none reads (docs/product-rules.md#physique-year, "Test sheets"):
 * the path for browsers without `BarcodeDetector` (Safari, Firefox). Printed cards are dark on light, so inverted
 * codes are not tried: that halves the work per frame on a phone.
 */
export function decodeFrame(frame: Frame): string | null {
  const code = jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'dontInvert' });
  return code?.data || null;
}
