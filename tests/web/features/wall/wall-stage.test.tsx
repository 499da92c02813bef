import { use } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChartPixelRatio } from '@/components/chart/chart-pixel-ratio';
import { WallStage } from '@/features/wall/components/wall-stage';
import { wallPixelRatio } from '@/features/wall/scale';

function ShowRatio() {
  return <span data-testid="ratio">{String(use(ChartPixelRatio))}</span>;
}

const original = { width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio };

function setScreen(width: number, height: number, dpr: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: height });
  Object.defineProperty(window, 'devicePixelRatio', { configurable: true, value: dpr });
}

describe('wall chart pixel ratio', () => {
  afterEach(() => setScreen(original.width, original.height, original.dpr));

  it('is the device pixel ratio times the fit scale, rounded', () => {
    expect(wallPixelRatio(1, 1)).toBe(1);
    expect(wallPixelRatio(1, 2)).toBe(2);
    expect(wallPixelRatio(2, 1)).toBe(2);
    expect(wallPixelRatio(1.25, 1366 / 1920)).toBe(0.89);
    expect(wallPixelRatio(Number.NaN, 0)).toBe(1);
  });

  it('draws charts at 2× on a 3840 × 2160 wall and at 1× on a 1920 × 1080 screen', () => {
    setScreen(3840, 2160, 1);
    render(
      <WallStage>
        <ShowRatio />
      </WallStage>,
    );
    expect(screen.getByTestId('wall-canvas')).toHaveAttribute('data-scale', '2.0000');
    expect(screen.getByTestId('wall-canvas')).toHaveAttribute('data-pixel-ratio', '2');
    expect(screen.getByTestId('ratio')).toHaveTextContent('2');

    act(() => {
      setScreen(1920, 1080, 1);
      window.dispatchEvent(new Event('resize'));
    });
    expect(screen.getByTestId('ratio')).toHaveTextContent('1');
  });
});
