/** How far an analysis run has come, for the progress bar. */
export interface RunProgress {
  /** `interrupted`: a reopened session whose analysis stopped with its page (nobody cancelled it). */
  status: 'running' | 'done' | 'cancelled' | 'interrupted';
  /** Cases with a result (including ones reused from an earlier run with the same settings). */
  done: number;
  total: number;
  /** Step cost spent by the finished cases. */
  cost: number;
  startedAt: number;
  /** Cases analysed in this run, and the time they took, for the time-left estimate. */
  doneThisRun: number;
  elapsedMs: number;
}

/** Seconds left, extrapolated from this run's pace; null until a case has finished. */
export function secondsLeft(progress: RunProgress): number | null {
  if (progress.status !== 'running' || progress.doneThisRun === 0) return null;
  const perCase = progress.elapsedMs / progress.doneThisRun;
  return ((progress.total - progress.done) * perCase) / 1000;
}
