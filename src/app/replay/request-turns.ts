/**
 * Which turn of a replayed run sent a logged request (the request log's "turn or step" column):
 * a sampled request's seed names its turn in its world (turnSeeds), a judge's request asks for
 * log-probabilities; anything else is named by the step that asked.
 */
import type { AnalysisSettings, CaseDef } from '../../engine/types.ts';
import type { RequestRecord } from '../../model/index.ts';
import { turnSeeds } from '../../replay/index.ts';
import { recordingOf } from './recording-of.ts';

export type TurnLabeler = (record: Pick<RequestRecord, 'caseId' | 'step' | 'seed' | 'choice'>) => string;

export function requestTurnLabeler(cases: readonly CaseDef[], steps: readonly string[], settings: Pick<AnalysisSettings, 'mode' | 'worlds'>): TurnLabeler {
  const byCase = new Map<string, { seeds: Map<number, number>; names: Map<number, string> }>();
  for (const caseDef of cases) {
    const recording = recordingOf(caseDef);
    if (!recording) continue;
    try {
      const seeds = turnSeeds(recording.turns, steps, caseDef, settings);
      byCase.set(caseDef.id, { seeds, names: new Map(recording.turns.map((t) => [t.index, `turn ${t.index + 1}: step ${t.step} ${t.name}`])) });
    } catch {
      // Settings that name no worlds (a study being edited): its requests are named by their step.
    }
  }
  return (record) => {
    const known = byCase.get(record.caseId);
    if (!known) return record.step;
    if (record.choice) return 'judge';
    const turn = record.seed !== undefined ? known.seeds.get(record.seed) : undefined;
    return turn !== undefined ? (known.names.get(turn) ?? record.step) : record.step;
  };
}
