/**
 * Plain-data messages between the page and its analysis workers. Comlink copies errors without
 * their extra fields, so a worker reports failures as values of these shapes instead of throwing.
 */
import type { CaseDef } from '../../engine/types.ts';

/** What the page needs to know about a pipeline definition to draw its settings and source view. */
export interface DefinitionSummary {
  name: string;
  steps: { name: string; inputs: string[]; cost: number; fixes: string[] }[];
  /** The definition's own cases (used when it is opened without a trace). */
  cases: CaseDef[];
  threshold: number;
  /** Model ids by alias the definition names for its llm calls (model steps). */
  models?: Record<string, string>;
}

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
