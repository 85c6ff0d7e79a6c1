/**
 * The contrast the page keeps with its study (the session's `contrast` field): a run's contrast
 * just computed in the Replay view added to what the study already holds.
 */
import type { ContrastReport } from '../../replay/index.ts';
import type { RunContrast, SessionContrast } from '../../session/types.ts';

/**
 * `existing` with the run's contrast in place of any earlier one for that run, in the order of the
 * study's cases. A session holds one number of replays per arm, so a contrast run with another N
 * replaces the runs computed with the old N rather than sit beside rows it cannot be compared with.
 */
export function withRunContrast(existing: SessionContrast | undefined, replays: number, run: string, report: ContrastReport, caseOrder: readonly string[]): SessionContrast {
  const entry: RunContrast = { run, commitment: report.commitment, contrast: report.contrast, errors: report.errors };
  const kept = existing && existing.replays === replays ? existing.runs.filter((r) => r.run !== run) : [];
  const position = (id: string) => {
    const k = caseOrder.indexOf(id);
    return k < 0 ? caseOrder.length : k;
  };
  return { version: 1, replays, runs: [...kept, entry].sort((a, b) => position(a.run) - position(b.run)) };
}
