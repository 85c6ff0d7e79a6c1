import type { CaseDef, CaseResult } from '../../engine/types.ts';
import { isAnalysedFailure } from '../../engine/case-result.ts';
import { trainingPairs, type TrainingPair } from '../../engine/repairs/training-pairs.ts';
import { ownValue } from '../../engine/named-record.ts';

/** What the page knows of the definition: each step's input names and the fix it used. */
export interface PairDefinition {
  steps: readonly { name: string; inputs: readonly string[] }[];
  fixOf: (step: string) => string | null;
}

/**
 * The training pairs of the page's results, as the command's --pairs writes them: one per step of
 * each failure's first minimal repair. Only failures analysed with the repair search carry the
 * repaired run's outputs, so only they give pairs.
 */
export function pagePairs(results: readonly (CaseResult | undefined)[], cases: readonly CaseDef[], def: PairDefinition | null): TrainingPair[] {
  const out: TrainingPair[] = [];
  for (const r of results) {
    if (!r || !isAnalysedFailure(r) || !r.repairedOutputs) continue;
    const caseInputs = cases.find((c) => c.id === r.id)?.inputs ?? {};
    const factual = r.factualOutputs ?? {};
    out.push(
      ...trainingPairs(r, {
        fixOf: (step) => def?.fixOf(step) ?? null,
        inputsOf: (step) => {
          const names = def?.steps.find((s) => s.name === step)?.inputs ?? [...Object.keys(caseInputs), ...r.players.slice(0, r.players.indexOf(step))];
          const inputs: Record<string, unknown> = {};
          for (const name of names) {
            const value = r.players.includes(name) ? ownValue(factual, name) : ownValue(caseInputs, name);
            Object.defineProperty(inputs, name, { value, enumerable: true, writable: true, configurable: true });
          }
          return inputs;
        },
      }),
    );
  }
  return out;
}

/** The pairs as JSONL, one record a line. */
export function pairsJsonl(pairs: readonly TrainingPair[]): string {
  return pairs.map((p) => JSON.stringify(p)).join('\n') + (pairs.length ? '\n' : '');
}
