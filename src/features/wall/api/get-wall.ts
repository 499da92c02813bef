import { useQuery } from '@tanstack/react-query';
import type { WallAnswer } from '@/domain/data-center/types';
import type { WallConfig } from '@/domain/wall/wall';
import { isRefusal, wallGet } from './wall-client';

/** Everything a wall shows until its next refresh: the link's playlist and the answer of each of its scenes. */
export interface WallSnapshot {
  config: WallConfig;
  scenes: WallAnswer[];
  /** Server clock minus this device's clock at fetch time, in ms (a TV's clock is often off). */
  clockOffsetMs: number;
}

/** GET /api/screen/:token/config, then every scene of its playlist in parallel. */
export async function getWallSnapshot(token: string, signal?: AbortSignal): Promise<WallSnapshot> {
  const base = `/api/screen/${encodeURIComponent(token)}`;
  const config = await wallGet<WallConfig>(`${base}/config`, signal);
  const clockOffsetMs = Date.parse(config.serverTime) - Date.now();
  const scenes = await Promise.all(config.playlist.scenes.map((scene) => wallGet<WallAnswer>(`${base}/scene/${scene}`, signal)));
  return { config, scenes, clockOffsetMs: Number.isFinite(clockOffsetMs) ? clockOffsetMs : 0 };
}

/** Wait before the next attempt after `failures` failed refreshes in a row: 5 s, 10 s, 20 s … at most 2 min. */
export function retryDelayMs(failures: number): number {
  return Math.min(120_000, 5_000 * 2 ** Math.max(0, failures - 1));
}

// Consecutive failed refreshes per link (TanStack Query resets its own count at every fetch).
const failuresInARow = new Map<string, number>();

/** Consecutive failed refreshes of a link (0 after a success). */
export function wallFailures(token: string): number {
  return failuresInARow.get(token) ?? 0;
}

/**
 * The wall's data, refreshed every `refreshSeconds` of its playlist. Old figures stay on screen while a refresh
 * runs and when it fails (the query keeps its data); failures back off and retry by themselves, forever, except
 * for a refused link. No toasts: a wall has nobody to read them.
 */
export function useWallQuery(token: string) {
  return useQuery({
    queryKey: ['wall', token],
    queryFn: async ({ signal }) => {
      try {
        const snapshot = await getWallSnapshot(token, signal);
        failuresInARow.set(token, 0);
        return snapshot;
      } catch (error) {
        failuresInARow.set(token, (failuresInARow.get(token) ?? 0) + 1);
        throw error;
      }
    },
    meta: { silent: true },
    // The wall polls on its own schedule; the TV browser's online flag is not trusted.
    networkMode: 'always',
    staleTime: 0,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchIntervalInBackground: true,
    // One attempt per cycle: the interval below is the retry, backing off while failures last.
    retry: false,
    refetchInterval: (query) => {
      if (query.state.error && isRefusal(query.state.error)) return false;
      const failures = failuresInARow.get(token) ?? 0;
      if (failures > 0) return retryDelayMs(failures);
      const seconds = query.state.data?.config.playlist.refreshSeconds;
      return seconds ? seconds * 1000 : false;
    },
  });
}
