import { useEffect, useState, type ReactNode } from 'react';
import { ChartPixelRatio } from '@/components/chart/chart-pixel-ratio';
import { fitWall, WALL_DESIGN, wallPixelRatio, wallTransform, type Size } from '../scale';

interface Viewport extends Size {
  devicePixelRatio: number;
}

function viewportSize(): Viewport {
  return { width: window.innerWidth, height: window.innerHeight, devicePixelRatio: window.devicePixelRatio || 1 };
}

/**
 * The 1920 × 1080 design canvas, scaled uniformly to fit the window (contain), centred, with the spare
 * room left as black bars. Layout inside is in design px, so every screen shows the same composition. Charts inside
 * draw their canvases at `devicePixelRatio × scale`, so a 4K wall shows them sharp instead of stretched 2×.
 */
export function WallStage({ children }: { children: ReactNode }) {
  const [viewport, setViewport] = useState<Viewport>(viewportSize);
  useEffect(() => {
    const onResize = () => setViewport(viewportSize());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const fit = fitWall(viewport);
  const pixelRatio = wallPixelRatio(viewport.devicePixelRatio, fit.scale);

  return (
    <div data-testid="wall-viewport" className="fixed inset-0 overflow-hidden bg-black">
      <div
        data-testid="wall-canvas"
        data-scale={fit.scale.toFixed(4)}
        data-pixel-ratio={pixelRatio}
        className="absolute top-0 left-0 origin-top-left overflow-hidden bg-background text-foreground"
        style={{ width: WALL_DESIGN.width, height: WALL_DESIGN.height, transform: wallTransform(fit) }}
      >
        <ChartPixelRatio value={pixelRatio}>{children}</ChartPixelRatio>
      </div>
    </div>
  );
}
