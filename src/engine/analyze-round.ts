import { paramsFor } from './model-params.ts';
import { analyzeCase } from './analyze.ts';
import { StepSuspended } from './errors.ts';
import type { ModelAnswer, PendingRequest } from './model-call.ts';
import { ModelContext, type WaitingResolver } from './model-context.ts';
import type { ReplayHooks } from './replay.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from './types.ts';
import type { ValidPipeline } from './pipeline.ts';

/** One round of a case: its result, or the model requests it waits for. */
export type CaseRound =
  | { kind: 'result'; result: CaseResult; usedResponses: string[] }
  | { kind: 'pending'; requests: PendingRequest[] };

/**
 * Analyse a case whose steps may call a model, knowing the responses in `answers` (docs/method.md,
 * "Model steps"). Steps whose response is unknown suspend; the round then returns every request it
 * collected (across coalitions and worlds, deduplicated by key) instead of a result. The host
 * fetches them and calls again with the larger answer set; the result of the first round with
 * nothing pending is the case's result, identical to a run in which every response was known from
 * the start (each round starts afresh, and answers never change). With `resolveWaiting`, a miss
 * is answered while the round waits (ModelContext), so a chain of requests takes one round.
 */
export function analyzeCaseRound(
  def: ValidPipeline,
  c: CaseDef,
  settings: AnalysisSettings,
  answers: ReadonlyMap<string, ModelAnswer>,
  hooks: Omit<ReplayHooks, 'model'> = {},
  resolveWaiting: WaitingResolver | null = null,
): CaseRound {
  const model = new ModelContext(answers, { ...def.models, ...settings.models }, (alias) => paramsFor(alias, def.modelParams, settings.modelParams), resolveWaiting);
  let result: CaseResult | null = null;
  try {
    result = analyzeCase(def, c, settings, { ...hooks, model });
  } catch (e) {
    // Anything thrown while requests are pending may come from a stand-in value: fetch first.
    if (!(e instanceof StepSuspended) && model.pending.size === 0) throw e;
  }
  // Past the request limit the case has failed (its error result): nothing pending is fetched.
  if (model.pending.size > 0 && model.overLimit === null) return { kind: 'pending', requests: [...model.pending.values()] };
  const used = [...model.used].sort();
  return { kind: 'result', result: used.length && result!.error === undefined ? { ...result!, modelKeys: used } : result!, usedResponses: used };
}
