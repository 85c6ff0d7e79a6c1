/**
 * Plain-data messages between the page and its analysis workers. Comlink copies errors without
 * their extra fields, so a worker reports failures as values of these shapes instead of throwing.
 */

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

/** Why a definition could not be compiled, with its place in the source when known. */
export interface DefinitionProblem {
  message: string;
  line?: number;
  column?: number;
}

export type LoadOutcome = { ok: true; summary: DefinitionSummary } | { ok: false; problem: DefinitionProblem };
