/** The wall's design canvas: every scene is laid out for 1920 × 1080 and scaled to the screen. */
export const WALL_DESIGN = { width: 1920, height: 1080 } as const;

export interface Size {
  width: number;
  height: number;
}

export interface WallFit {
  /** Uniform scale factor applied to the design canvas. */
  scale: number;
  /** Left and top offsets in screen px that centre the scaled canvas (the letterbox bars). */
  offsetX: number;
  offsetY: number;
}

/**
 * Fits the design canvas inside the viewport without cropping or distortion (CSS `contain`): one scale
 * for both axes, the spare room split evenly as bars on the two sides that have it.
 */
export function fitWall(viewport: Size, design: Size = WALL_DESIGN): WallFit {
  if (viewport.width <= 0 || viewport.height <= 0 || design.width <= 0 || design.height <= 0) {
    return { scale: 1, offsetX: 0, offsetY: 0 };
  }
  const scale = Math.min(viewport.width / design.width, viewport.height / design.height);
  return {
    scale,
    offsetX: (viewport.width - design.width * scale) / 2,
    offsetY: (viewport.height - design.height * scale) / 2,
  };
}

/** The CSS transform of a top-left-anchored canvas for a fit. */
export function wallTransform(fit: WallFit): string {
  return `translate(${fit.offsetX}px, ${fit.offsetY}px) scale(${fit.scale})`;
}

/**
 * Canvas pixel ratio for charts on the scaled design canvas: the screen's device pixel ratio times the fit's scale, so
 * a chart laid out at 1920 design px on a 3840 px wall is drawn with 2 canvas px per design px (sharp, not stretched).
 * Rounded to hundredths so tiny resize jitter does not re-create every chart.
 */
export function wallPixelRatio(devicePixelRatio: number, scale: number): number {
  const dpr = Number.isFinite(devicePixelRatio) && devicePixelRatio > 0 ? devicePixelRatio : 1;
  const s = Number.isFinite(scale) && scale > 0 ? scale : 1;
  return Math.max(0.25, Math.round(dpr * s * 100) / 100);
}
