import { useEffect, useState } from 'react';

/** Index of the scene after `index` in a playlist of `length` scenes, wrapping round. */
export function nextSceneIndex(index: number, length: number): number {
  return length > 0 ? (index + 1) % length : 0;
}

/**
 * Rotates through `length` scenes, one every `intervalMs`. A playlist of one scene (or a non-positive
 * interval) stays put; a shorter playlist after a refresh starts again from its first scene.
 */
export function usePlaylist(length: number, intervalMs: number): number {
  const [state, setState] = useState({ index: 0, length });
  // A new playlist length (the link was edited) restarts the rotation; adjusted while rendering, as React advises.
  if (state.length !== length) setState({ index: 0, length });
  const index = state.length === length && state.index < length ? state.index : 0;

  useEffect(() => {
    if (length < 2 || intervalMs <= 0) return;
    const timer = setInterval(() => setState((s) => ({ index: nextSceneIndex(s.index, length), length })), intervalMs);
    return () => clearInterval(timer);
  }, [length, intervalMs]);

  return index;
}
