/**
 * Training pairs of a replayed run (docs/repairs.md, "Training pairs"). A replay step's output is
 * the record of the turns it replayed, not text a model wrote, so the generic pairs (the step's
 * name and inputs as prompt, its outputs as JSON) teach nothing. Here each model turn of a repaired
 * player whose text the repair changed gives one record, as CausalFlow pairs a wrong step with
 * its correction: the turn's recorded context as the prompt, its recorded answer rejected and its
 * answer in the repaired run chosen.
 */
import type { AttributedCaseResult } from '../engine/types.ts';
import { ownValue } from '../engine/named-record.ts';
import type { TrainingPair } from '../engine/repairs/training-pairs.ts';
import { recordedContext, type ReplayDefinition } from '../replay/index.ts';

/** What a replay step outputs: per turn index, the text it ended with. */
function turnTexts(output: unknown): Map<number, string> {
  const out = new Map<number, string>();
  const turns = (output as { turns?: unknown } | null)?.turns;
  if (typeof turns !== 'object' || turns === null) return out;
  for (const [index, turn] of Object.entries(turns)) {
    const text = (turn as { text?: unknown } | null)?.text;
    if (typeof text === 'string') out.set(Number(index), text);
  }
  return out;
}

/** The pairs of one repaired case of the replay definition, or null when the case is not one of its runs. */
export function replayPairs(def: ReplayDefinition, r: AttributedCaseResult, fixOf: (step: string) => string | null): TrainingPair[] | null {
  const k = def.cases.findIndex((c) => c.id === r.id);
  if (k < 0) return null;
  const run = def.runs[k];
  const repair = r.repairs?.[0];
  const after = r.repairedOutputs;
  if (!repair || !after) return [];
  const out: TrainingPair[] = [];
  for (const step of repair.fixed) {
    const player = def.steps.indexOf(step);
    if (player < 0 || !Object.hasOwn(after, step)) continue;
    const repaired = turnTexts(ownValue(after, step));
    for (const turn of run.turns) {
      if (turn.kind !== 'model' || turn.player !== player) continue;
      const chosen = repaired.get(turn.index);
      const rejected = turn.output;
      const prompt = recordedContext(turn, run);
      if (chosen === undefined || chosen === '' || rejected === '' || chosen === rejected || prompt.length === 0) continue;
      out.push({ prompt, chosen, rejected, case: r.id, step, fix: fixOf(step), before: r.vEmpty, after: repair.value, shapley: ownValue(r.shapley, step) ?? 0 });
    }
  }
  return out;
}
