/**
 * A pool as the study run sees it (run-study.ts): the page's PageAnalysisPool and the command's
 * NodeAnalysisPool (through node/study-pool.ts) both offer it, so one study run serves both hosts.
 */
import type { DefinitionSummary } from '../engine/definition-summary.ts';
import type { TableGame } from '../engine/table-game.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../engine/types.ts';
import type { ModelResolver } from './contract.ts';

/** One thing a pool analyses: a case of the definition, or a table game (no definition); `index` is its place in the study. */
export type WorkItem = { kind: 'case'; index: number; caseDef: CaseDef } | { kind: 'game'; index: number; game: TableGame };

export interface PoolJob {
  items: readonly WorkItem[];
  /** The pipeline definition the cases run against (not needed for table games). */
  source?: string;
  /** Its file name, for messages that point at a line. */
  fileName?: string;
  settings: AnalysisSettings;
  /** Step names, for the result of a case that could not run. */
  players: readonly string[];
  onResult(index: number, result: CaseResult): void;
  /** Answers model steps' requests (cache, then endpoint); without it a model call is a per-case error. */
  model?: ModelResolver;
  /** Rounds of model requests a case may take (default MAX_MODEL_ROUNDS): a replay's request bound plus one. */
  maxModelRounds?: number;
}

/** Why a definition could not be compiled, with its place in the source when known. */
export interface DefinitionProblem {
  message: string;
  line?: number;
  column?: number;
}

/** A definition described (its summary, with its own cases), or why it could not be. */
export type DescribeOutcome = { ok: true; summary: DefinitionSummary } | { ok: false; problem: DefinitionProblem };

export interface StudyPool {
  /** Workers in the pool (the batch stop analyses a few batches' worth between its checks). */
  readonly size: number;
  describe(source: string, fileName: string): Promise<DescribeOutcome>;
  /** Runs every item, each result to `job.onResult` as it finishes; 'cancelled' as soon as `signal` aborts. */
  run(job: PoolJob, signal: AbortSignal): Promise<'done' | 'cancelled'>;
}
