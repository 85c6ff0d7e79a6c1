import type { CaseDef, CaseResult } from '../../engine/types.ts';
import { isAnalysedFailure } from '../../engine/case-result.ts';
import { trainingPairs, type TrainingPair } from '../../engine/repairs/training-pairs.ts';
import { casePairSources, type PairRequestEntry } from '../../engine/repairs/pair-sources.ts';
import type { AsyncResponseStore } from '../../model/index.ts';
import { replayPairs } from '../../replay/index.ts';

/** What the page knows of the definition: each step's input names and the fix it used. */
export interface PairDefinition {
  steps: readonly { name: string; inputs: readonly string[] }[];
  fixOf: (step: string) => string | null;
}

/**
 * The training pairs of the page's results, as the command's --pairs writes them: one per step of
 * each failure's first minimal repair, a model step's prompt being the request messages it sent
 * (found among `responses`, the cached responses its result names). Only failures analysed with
 * the repair search carry the repaired run's outputs, so only they give pairs. A replayed recorded
 * run (a case with a `recording` input, as "Blame this run" opens) pairs its repaired model turns
 * instead, by the command's rule.
 */
export function pagePairs(results: readonly (CaseResult | undefined)[], cases: readonly CaseDef[], def: PairDefinition | null, responses: readonly PairRequestEntry[] = []): TrainingPair[] {
  const out: TrainingPair[] = [];
  for (const r of results) {
    if (!r || !isAnalysedFailure(r) || !r.repairedOutputs) continue;
    const caseInputs = cases.find((c) => c.id === r.id)?.inputs ?? {};
    const replayed = replayPairs(caseInputs, r, (step) => def?.fixOf(step) ?? null);
    if (replayed) {
      out.push(...replayed);
      continue;
    }
    out.push(
      ...trainingPairs(r, casePairSources(r, {
        caseInputs,
        stepInputs: (step) => def?.steps.find((s) => s.name === step)?.inputs,
        fixOf: (step) => def?.fixOf(step) ?? null,
        responses,
      })),
    );
  }
  return out;
}

/** The cached responses the results name (`modelKeys`), from the page's response store. */
export async function pairResponses(results: readonly (CaseResult | undefined)[], store: Pick<AsyncResponseStore, 'getMany'>): Promise<PairRequestEntry[]> {
  const keys = [...new Set(results.flatMap((r) => (r && isAnalysedFailure(r) && r.repairedOutputs ? (r.modelKeys ?? []) : [])))].sort();
  if (keys.length === 0) return [];
  const found = await store.getMany(keys);
  return keys.flatMap((key) => {
    const entry = found.get(key);
    return entry ? [{ key, request: entry.request, response: entry.response }] : [];
  });
}

/** The pairs as JSONL, one record a line. */
export function pairsJsonl(pairs: readonly TrainingPair[]): string {
  return pairs.map((p) => JSON.stringify(p)).join('\n') + (pairs.length ? '\n' : '');
}
