/**
 * Plain-data messages between the page and its analysis workers. Comlink copies errors without
 * their extra fields, so a worker reports failures as values of these shapes instead of throwing.
 */
import type { ModelAnswer, PendingRequest } from '../../engine/model-call.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import type { TableGame } from '../../engine/table-game.ts';
import type { PackedCoalitions } from '../../engine/packed-coalitions.ts';
import type { Endpoint } from 'comlink';
import type { WaitChunk } from './wait-channel.ts';

/** What the page knows of a compiled definition: the engine's one summary type. */
export type { DefinitionSummary } from '../../engine/definition-summary.ts';
import type { DefinitionSummary } from '../../engine/definition-summary.ts';

/**
 * One analysis worker as the pool sees it: a Comlink endpoint to its API (a port, or a Worker),
 * a way to stop it, and, where that can be seen, word that it was lost without being stopped.
 */
export interface AnalysisWorker extends Endpoint {
  /** Ends the worker and frees its memory. */
  terminate(): void;
  /** Settles with why (the end of a sentence: "its process crashed, ...") when the worker is gone; never, for workers whose loss cannot be seen. */
  readonly lost?: Promise<string>;
  /**
   * Hands a chunk of a model response to the worker while it waits for it (wait-channel.ts): through
   * the frame that holds its buffer, or written in directly. Absent where workers cannot wait.
   */
  sendWaitChunk?(chunk: WaitChunk): void;
}

/**
 * The first message a worker gets, on its own channel: the port the page talks to it on. Its
 * Comlink API and the messages below go through that port, so the page reaches a worker the same
 * way whether it started it itself or an analysis frame did (create-analysis-worker.ts).
 */
export interface ConnectMessage {
  agentblameConnect: MessagePort;
  /**
   * Shared memory for waiting rounds (wait-channel.ts), where the worker is cross-origin isolated;
   * without it the worker's rounds restart.
   */
  agentblameWaitBuffer?: SharedArrayBuffer;
}

export function isConnectMessage(data: unknown): data is ConnectMessage {
  return typeof data === 'object' && data !== null && (data as Partial<ConnectMessage>).agentblameConnect instanceof MessagePort;
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

/**
 * Several consecutive CaseDoneMessages in one message: a worker holds the outcomes of quick cases
 * back for at most CASE_DONE_HOLD_MS (never past the end of its batch), since each message cost the
 * page's main thread a task, a deserialisation and a timer restart (bench/README.md, "Speed round 4").
 */
export interface CaseDoneGroup {
  agentblameCasesDone: CaseDoneMessage[];
}

export function isCaseDoneGroup(data: unknown): data is CaseDoneGroup {
  return typeof data === 'object' && data !== null && Array.isArray((data as Partial<CaseDoneGroup>).agentblameCasesDone);
}

/**
 * Longest a worker holds a finished outcome back to send it with the next ones. A case's time limit
 * (seconds) restarts when its predecessor's outcome arrives, so a hold shortens it by at most this.
 */
export const CASE_DONE_HOLD_MS = 16;

/** Why a definition could not be compiled (the study run's type). */
export type { DefinitionProblem } from '../study-pool.ts';
import type { DefinitionProblem } from '../study-pool.ts';

/** `analysisSource`: the definition without its inline case list, for the pool's other workers (when it has one). */
export type LoadOutcome = { ok: true; summary: DefinitionSummary; analysisSource?: string } | { ok: false; problem: DefinitionProblem };

/** One version of a definition for the regression game: its file name (named in errors) and source. */
export interface VersionFile {
  fileName: string;
  source: string;
}

/**
 * The regression game built in a worker (it runs both definitions' top level): the game's and its
 * reverse's definitions, each step's change, and the notes of what differs beyond the steps; or the
 * refusal, worded as the command's (a file that is no definition, a step that cannot be matched).
 */
export type RegressionGameOutcome =
  | { ok: true; source: string; reverseSource: string; steps: { name: string; change: 'unchanged' | 'changed' | 'added' | 'removed' }[]; notes: string[] }
  | { ok: false; message: string };

/**
 * What an analysis worker answers (its entry is the page's `analysis/analysis.worker.ts`, started
 * by URL): the pool calls these through Comlink.
 */
export interface AnalysisWorkerApi {
  /**
   * Compiles `source` in the sandbox and keeps it for the following calls. With `describe`,
   * answers its summary with its own cases; without, the pool described it already.
   */
  load(source: string, fileName: string, describe?: boolean): Promise<LoadOutcome>;
  /**
   * One case; with `watch`, each step it starts is posted (WatchdogMessage). With `waiting`, a
   * worker that has a wait buffer asks for each response it lacks and waits for it (wait-channel.ts)
   * instead of answering the requests; one without ignores it.
   */
  analyzeCase(caseDef: CaseDef, settings: AnalysisSettings, watch?: boolean, answers?: Record<string, ModelAnswer>, waiting?: boolean): Promise<CallOutcome>;
  /** A batch of cases, the outcomes posted as they finish (CaseDoneMessage, in CaseDoneGroups); answers how many. */
  analyzeCases(caseDefs: CaseDef[], settings: AnalysisSettings): Promise<number>;
  /** One table game. */
  analyzeGame(game: TableGame, settings: AnalysisSettings): CaseResult;
  /** The regression game of `after` against its earlier version `before` (docs/ci.md). */
  regressionGame(after: VersionFile, before: VersionFile): Promise<RegressionGameOutcome>;
  /**
   * Warms the engine up while nothing else is asked (pool/worker/warm-up.ts): answers at once, the
   * warm-up goes on in background tasks and stops at the next call. Once per worker.
   */
  warmUp(): void;
}
