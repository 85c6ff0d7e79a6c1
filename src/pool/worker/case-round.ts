/**
 * One round of one case in an analysis worker (the page's and the command's entries alike): the
 * sandboxed definition run on the case with the model answers known so far. Every pool describes a
 * definition before it runs cases of it, so the definition's own case list is never read here.
 */
import type { ModelAnswer, PendingRequest } from '../../engine/model-call.ts';
import type { WaitingResolver } from '../../engine/model-context.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import { analyzeSourceCaseRound } from '../../sandbox/analyze-source.ts';
import type { SandboxHooks } from '../../sandbox/analyze-source.ts';

/** A case's result, or the model requests it waits for. */
export type CaseRoundOutcome = { kind: 'result'; result: CaseResult } | { kind: 'pending'; requests: PendingRequest[] };

/** Throws what the sandbox throws (DefinitionError for a bad definition); each host words that its own way. */
export function runCaseRound(
  source: string,
  fileName: string,
  caseDef: CaseDef,
  settings: AnalysisSettings,
  answers: Readonly<Record<string, ModelAnswer>> | null | undefined,
  hooks?: SandboxHooks,
  /** Answers a model request while the round waits (only a host that can block passes one). */
  resolveWaiting?: WaitingResolver,
): CaseRoundOutcome {
  const known = new Map<string, ModelAnswer>(answers ? Object.entries(answers) : []);
  const round = analyzeSourceCaseRound(source, caseDef, settings, known, hooks, fileName, { casesDescribed: true, ...(resolveWaiting && { resolveWaiting }) });
  return round.kind === 'pending' ? { kind: 'pending', requests: round.requests } : { kind: 'result', result: round.result };
}
