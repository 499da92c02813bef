import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryDelayMs } from '@/features/wall/api/get-wall';
import { formatCountdown } from '@/features/wall/components/wall-screen';
import { secondsUntilRefresh, useRefreshCountdown } from '@/features/wall/hooks/use-countdown';
import { nextSceneIndex, usePlaylist } from '@/features/wall/hooks/use-playlist';
import { fitWall, wallTransform } from '@/features/wall/scale';

describe('wall scaling (1920 × 1080 design, contain, letterboxed, centred)', () => {
  it('fills a 16:9 screen exactly at any size', () => {
    expect(fitWall({ width: 1920, height: 1080 })).toEqual({ scale: 1, offsetX: 0, offsetY: 0 });
    expect(fitWall({ width: 3840, height: 2160 })).toEqual({ scale: 2, offsetX: 0, offsetY: 0 });
    expect(fitWall({ width: 1280, height: 720 })).toEqual({ scale: 2 / 3, offsetX: 0, offsetY: 0 });
  });

  it('leaves bars above and below on a taller screen', () => {
    const fit = fitWall({ width: 1280, height: 1024 });
    expect(fit.scale).toBeCloseTo(2 / 3);
    expect(fit.offsetX).toBe(0);
    expect(fit.offsetY).toBeCloseTo((1024 - 720) / 2);
  });

  it('leaves bars left and right on a wider screen', () => {
    const fit = fitWall({ width: 2560, height: 1080 });
    expect(fit.scale).toBe(1);
    expect(fit.offsetX).toBe(320);
    expect(fit.offsetY).toBe(0);
    expect(wallTransform(fit)).toBe('translate(320px, 0px) scale(1)');
  });

  it('never crops: the scaled canvas always fits inside the screen', () => {
    for (const [w, h] of [
      [1366, 768],
      [1024, 1366],
      [800, 600],
      [5120, 1440],
    ]) {
      const fit = fitWall({ width: w, height: h });
      expect(1920 * fit.scale + 2 * fit.offsetX).toBeCloseTo(w);
      expect(1080 * fit.scale + 2 * fit.offsetY).toBeCloseTo(h);
      expect(fit.offsetX).toBeGreaterThanOrEqual(0);
      expect(fit.offsetY).toBeGreaterThanOrEqual(0);
    }
  });

  it('survives a zero-sized window', () => {
    expect(fitWall({ width: 0, height: 0 })).toEqual({ scale: 1, offsetX: 0, offsetY: 0 });
  });
});

describe('playlist rotation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('steps to the next scene and wraps round', () => {
    expect(nextSceneIndex(0, 4)).toBe(1);
    expect(nextSceneIndex(3, 4)).toBe(0);
    expect(nextSceneIndex(0, 0)).toBe(0);
  });

  it('shows each scene for the interval, in order, forever', () => {
    const { result } = renderHook(() => usePlaylist(3, 20_000));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(19_999));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(1);
    act(() => vi.advanceTimersByTime(20_000));
    expect(result.current).toBe(2);
    act(() => vi.advanceTimersByTime(20_000));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(60_000 * 3));
    expect(result.current).toBe(0);
  });

  it('stays put with one scene', () => {
    const { result } = renderHook(() => usePlaylist(1, 5_000));
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current).toBe(0);
  });

  it('starts again from the first scene when the playlist changes length', () => {
    const { result, rerender } = renderHook(({ n }) => usePlaylist(n, 10_000), { initialProps: { n: 4 } });
    act(() => vi.advanceTimersByTime(30_000));
    expect(result.current).toBe(3);
    rerender({ n: 2 });
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current).toBe(1);
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current).toBe(0);
  });
});

describe('refresh countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-20T08:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('computes whole seconds to the next refresh', () => {
    const t0 = Date.parse('2026-11-20T08:00:00Z');
    expect(secondsUntilRefresh(t0, t0, 300_000)).toBe(300);
    expect(secondsUntilRefresh(t0 + 1, t0, 300_000)).toBe(300);
    expect(secondsUntilRefresh(t0 + 1000, t0, 300_000)).toBe(299);
    expect(secondsUntilRefresh(t0 + 400_000, t0, 300_000)).toBe(0);
    expect(secondsUntilRefresh(t0, 0, 300_000)).toBe(0);
    expect(formatCountdown(300)).toBe('5:00');
    expect(formatCountdown(61)).toBe('1:01');
    expect(formatCountdown(-3)).toBe('0:00');
  });

  it('counts down every second and starts over when new data arrives', () => {
    const updated = Date.now();
    const { result, rerender } = renderHook(({ at }) => useRefreshCountdown(at, 30_000), { initialProps: { at: updated } });
    expect(result.current).toBe(30);
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current).toBe(29);
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current).toBe(19);
    act(() => vi.advanceTimersByTime(25_000));
    expect(result.current).toBe(0);
    // A refresh landed: the count restarts at once.
    rerender({ at: Date.now() });
    expect(result.current).toBe(30);
  });

  it('backs off between failed refreshes, up to two minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 120_000, 120_000, 120_000]);
  });
});
