import { useEffect, useState, type ReactNode } from 'react';
import { fitWall, WALL_DESIGN, wallTransform, type Size } from '../scale';

function viewportSize(): Size {
  return { width: window.innerWidth, height: window.innerHeight };
}

/**
 * The 1920 × 1080 design canvas, scaled uniformly to fit the window (contain), centred, with the spare
 * room left as black bars. Layout inside is in design px, so every screen shows the same composition.
 */
export function WallStage({ children }: { children: ReactNode }) {
  const [viewport, setViewport] = useState<Size>(viewportSize);
  useEffect(() => {
    const onResize = () => setViewport(viewportSize());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const fit = fitWall(viewport);

  return (
    <div data-testid="wall-viewport" className="fixed inset-0 overflow-hidden bg-black">
      <div
        data-testid="wall-canvas"
        data-scale={fit.scale.toFixed(4)}
        className="absolute top-0 left-0 origin-top-left overflow-hidden bg-background text-foreground"
        style={{ width: WALL_DESIGN.width, height: WALL_DESIGN.height, transform: wallTransform(fit) }}
      >
        {children}
      </div>
    </div>
  );
}
