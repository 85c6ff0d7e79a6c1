/**
 * Plain-data messages between the page and its analysis workers. Comlink copies errors without
 * their extra fields, so a worker reports failures as values of these shapes instead of throwing.
 */
import type { PendingRequest } from '../../engine/model-call.ts';
import type { CaseDef, CaseResult } from '../../engine/types.ts';
import type { PackedCoalitions } from '../../engine/packed-coalitions.ts';

/** What the page knows of a compiled definition: the engine's one summary type. */
export type { DefinitionSummary } from '../../engine/definition-summary.ts';
import type { DefinitionSummary } from '../../engine/definition-summary.ts';

/**
 * Posted by a worker (outside Comlink), when asked to watch a case, as it starts a step different
 * from the last one it reported, or the metric (-1), so a case that never returns can be blamed on
 * its step.
 */
export interface WatchdogMessage {
  agentblameWatchdog: number;
}

export function isWatchdogMessage(data: unknown): data is WatchdogMessage {
  return typeof data === 'object' && data !== null && typeof (data as Partial<WatchdogMessage>).agentblameWatchdog === 'number';
}

/** What one call analysing a case gives: its result, or the model requests it waits for. */
export type CallOutcome = CaseResult | { pending: PendingRequest[] };

/**
 * Posted by a worker (outside Comlink) as each case of a batch finishes, so the page has every
 * finished outcome even if a later case of the batch never returns, and times each case on its own.
 */
export interface CaseDoneMessage {
  /** The case's position in its batch. */
  agentblameCaseDone: number;
  /** Without its coalition table when that is packed in `coalitions` (engine/packed-coalitions.ts). */
  outcome: CallOutcome;
  coalitions?: PackedCoalitions;
}

export function isCaseDoneMessage(data: unknown): data is CaseDoneMessage {
  return typeof data === 'object' && data !== null && typeof (data as Partial<CaseDoneMessage>).agentblameCaseDone === 'number';
}

/** Why a definition could not be compiled, with its place in the source when known. */
export interface DefinitionProblem {
  message: string;
  line?: number;
  column?: number;
}

/** `analysisSource`: the definition without its inline case list, for the pool's other workers (when it has one). */
export type LoadOutcome = { ok: true; summary: DefinitionSummary; analysisSource?: string } | { ok: false; problem: DefinitionProblem };
