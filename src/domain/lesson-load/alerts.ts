/**
 * Safety alerts of a lesson in progress (docs/product-rules.md#lesson-load): a student above the danger threshold
 * for DANGER_SUSTAIN_S seconds, or a band bound in the lesson that went silent for SILENT_AFTER_S seconds after it had
 * reported. Each alert is kept with its acknowledgement.
 */
export const ALERT_KINDS = ['danger', 'silent'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const DANGER_SUSTAIN_S = 30;
export const SILENT_AFTER_S = 60;
/** Two samples further apart than this break a run above the danger threshold (a band that dropped a few seconds does not). */
export const DANGER_GAP_S = 5;

/**
 * The runs of one student's samples (time order, epoch ms) at or above `dangerBpm` that lasted at least
 * DANGER_SUSTAIN_S: their start, end and peak. A run still going at the last sample is included when long enough.
 */
export function dangerRuns(samples: readonly { at: number; bpm: number }[], dangerBpm: number): { from: number; to: number; peak: number }[] {
  const runs: { from: number; to: number; peak: number }[] = [];
  let run: { from: number; to: number; peak: number } | null = null;
  const close = () => {
    if (run && (run.to - run.from) / 1000 >= DANGER_SUSTAIN_S) runs.push(run);
    run = null;
  };
  for (const s of samples) {
    if (s.bpm >= dangerBpm) {
      if (run && (s.at - run.to) / 1000 <= DANGER_GAP_S) {
        run.to = s.at;
        run.peak = Math.max(run.peak, s.bpm);
      } else {
        close();
        run = { from: s.at, to: s.at, peak: s.bpm };
      }
    } else close();
  }
  close();
  return runs;
}

/** Whether a band whose last sample was at `lastAt` (epoch ms) counts as silent at `now` in a lesson in progress. */
export const isSilent = (lastAt: number | null, now: number) => lastAt !== null && (now - lastAt) / 1000 >= SILENT_AFTER_S;

/**
 * The bands to alert as silent at `now`: those silent while another band of the lesson still reports. When every band
 * is silent at once the cause is the hub or the lesson's connection, not the students: no alert per student (the
 * monitor shows that no data is coming).
 */
export function silentBands<T extends { lastAt: number }>(bands: readonly T[], now: number): T[] {
  if (!bands.some((b) => !isSilent(b.lastAt, now))) return [];
  return bands.filter((b) => isSilent(b.lastAt, now));
}
