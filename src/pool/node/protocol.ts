import type { MessagePort } from 'node:worker_threads';
import type { ModelAnswer, PendingRequest } from '../../engine/model-call.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import type { DefinitionSummary } from '../../engine/definition-summary.ts';
import type { PackedCoalitions } from '../../engine/packed-coalitions.ts';
import type { TableGame } from '../../engine/table-game.ts';

/**
 * Messages between the NodeAnalysisPool and its worker threads (all structured-clone safe). A `run`
 * carries a small batch of cases, so a worker goes from one case to the next without waiting a
 * round trip for work; it answers each case on its own as soon as it is done (`index` is the
 * case's place in the batch), so the pool always knows which cases of a batch are finished.
 */
export type WorkerRequest =
  | { type: 'describe'; job: number; source: string; fileName: string }
  | {
      type: 'run';
      job: number;
      /**
       * The definition; left out when it is the one the worker was last sent (describe or run):
       * a definition listing thousands of its own cases is large, and sending it with every
       * batch cost more than analysing the batch.
       */
      source?: string;
      fileName: string;
      /** The cases, or a case of the worker's last run request by its place there (HeldCase). */
      cases: (CaseDef | HeldCase)[];
      settings: AnalysisSettings;
      /** Per case (same order), the model responses known so far (model steps), by request key. */
      answers?: (Record<string, ModelAnswer> | null)[];
      /**
       * Per case (same order): whether its round waits for each response it lacks ('model-wait',
       * answered by ModelWaitAnswer) instead of returning its requests (docs/replay.md, "Time").
       */
      waiting?: boolean[];
    }
  /** A batch of table games (no definition): answered per game with `result`, as a run's cases are. */
  | { type: 'games'; job: number; games: TableGame[]; settings: AnalysisSettings };

/**
 * The pool's answer to a 'model-wait': the response, or why there is none (the case's error, as a
 * round's failed fetch gives it). The worker's process hands it to the blocked thread through a
 * MessagePort of their own and wakes it with Atomics.notify (workers/analysis.process.mjs).
 */
export type ModelWaitAnswer = { type: 'model-answer'; answer: ModelAnswer } | { type: 'model-answer'; error: string };

/**
 * The thread's side of that channel (its workerData.wait): the port the answers arrive on, and a
 * counter in shared memory its process bumps after each one (the thread sleeps on it).
 */
export interface WaitChannel {
  port: MessagePort;
  signal: SharedArrayBuffer;
}

/**
 * A case the worker was sent in its last run request, by its index there: a case waiting on model
 * responses comes back once per round, and a replay's case carries its whole recording (1.5 MB for
 * 2 000 turns), which cost more to send, receive and seal again every round than the round's replay.
 * The worker keeps the very object, so the sandbox's sealed copy of its inputs is reused too.
 */
export interface HeldCase {
  held: number;
}

export type WorkerReply =
  | { type: 'ready' }
  /**
   * `analysisSource`: the definition without its inline case list, when it has one worth dropping;
   * the pool sends runs that text instead, and a run's worker never reads the definition's own
   * cases (the describe checked them). The describing worker keeps that text as its last source.
   */
  | { type: 'described'; job: number; description: DefinitionSummary; analysisSource?: string }
  /**
   * `coalitions`: the result's coalition table packed as typed arrays (engine/packed-coalitions.ts),
   * taken out of `result`; a clone of 256 small objects per 8-step case cost more than its analysis.
   */
  | { type: 'result'; job: number; index: number; result: CaseResult; coalitions?: PackedCoalitions }
  /** Case `index` waits for these model responses: the pool fetches them and sends the case again. */
  | { type: 'pending'; job: number; index: number; requests: PendingRequest[] }
  /**
   * Case `index` (a waiting round) lacks this response and waits, blocked, for the pool's
   * ModelWaitAnswer; its thread answers nothing else meanwhile.
   */
  | { type: 'model-wait'; job: number; index: number; request: PendingRequest }
  /** The job (or case `index` of a run) could not run at all: a bad definition (DefinitionError) or an internal failure. */
  | { type: 'failed'; job: number; index: number; message: string; definitionError: boolean };

/**
 * Several case replies of one batch in one message: a worker holds the answers of quick cases for
 * up to a few milliseconds (workers/analysis.node.ts, HOLD_MS) and sends them together, since each
 * message crosses a thread, a process and the pipe to the command (about a third of the command's
 * time on 8-step cases of 2 ms each). The worker process unrolls the group (worker-process.ts).
 */
export interface WorkerReplyGroup {
  type: 'replies';
  replies: WorkerReply[];
}

/**
 * Where a worker's thread was when it ended, read by its process from the progress buffer: the
 * pool blames that case, not the first unanswered one (answers may be held back, see WorkerReplyGroup).
 */
export interface WorkerWhere {
  phase: number;
  case: number;
  /** The job the thread was on: a worker may hold the next batch behind the one it answers. */
  job: number;
}

/**
 * What a worker is doing, written into a SharedArrayBuffer with Atomics so the pool can read it
 * even while the worker spins in user code and cannot post messages. Slot 0 (PROGRESS_PHASE)
 * holds a step index (>= 0) or one of these markers; slot 1 (PROGRESS_CASE) the index, within
 * its batch, of the case in progress.
 */
export { PHASE_DEFERRED, PHASE_DEFINITION, PHASE_GAME, PHASE_IDLE, PHASE_INPUTS, PHASE_METRIC } from '../contract.ts';
export const PROGRESS_PHASE = 0;
export const PROGRESS_CASE = 1;
/** Slot 2: the job (WorkerRequest.job) the case belongs to. */
export const PROGRESS_JOB = 2;
/** Int32 slots in the buffer. */
export const PROGRESS_SLOTS = 3;
