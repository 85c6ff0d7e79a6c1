/**
 * The most model requests the cases left to analyse of a replay study can need (the progress
 * line's "N of at most M"), from each case's recording; null for a study that is no replay.
 */
import type { AnalysisSettings, CaseDef } from '../../engine/types.ts';
import { replayOutcomeKind, replayRequestBound, type ReplayRequestBound } from '../../replay/index.ts';
import { recordingOf, type RecordingView } from './recording-of.ts';

export function studyRequestBound(source: string | undefined, cases: readonly CaseDef[], done: readonly unknown[], players: number, settings: AnalysisSettings): ReplayRequestBound | null {
  const outcome = replayOutcomeKind(source ?? '');
  if (outcome === null) return null;
  const runs: RecordingView[] = [];
  cases.forEach((caseDef, index) => {
    const recording = done[index] === undefined ? recordingOf(caseDef) : null;
    if (recording) runs.push(recording);
  });
  return runs.length > 0 ? replayRequestBound(runs, players, settings, outcome) : null;
}
