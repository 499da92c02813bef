import { createContext } from 'react';

/**
 * Canvas pixel ratio for every Chart inside (a Chart's own `devicePixelRatio` prop wins). Undefined leaves ECharts
 * on `window.devicePixelRatio`. A scaled surface such as the wall display, which draws a 1920 × 1080 design and
 * scales it with a CSS transform, provides `devicePixelRatio × scale` so its canvases match the screen's pixels.
 */
export const ChartPixelRatio = createContext<number | undefined>(undefined);
