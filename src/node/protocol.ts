import type { AnalysisSettings, CaseDef, CaseResult } from '../engine/types.ts';
import type { PipelineDescription } from '../sandbox/analyze-source.ts';

/** Messages between the AnalysisPool and its worker threads (all structured-clone safe). */
export type WorkerRequest =
  | { type: 'describe'; job: number; source: string; fileName: string }
  | { type: 'run'; job: number; source: string; fileName: string; caseDef: CaseDef; settings: AnalysisSettings };

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'described'; job: number; description: PipelineDescription }
  | { type: 'result'; job: number; result: CaseResult }
  /** The job could not run at all: a bad definition (DefinitionError) or an internal failure. */
  | { type: 'failed'; job: number; message: string; definitionError: boolean };

/**
 * What a worker is doing, written into a SharedArrayBuffer with Atomics so the pool can read it
 * even while the worker spins in user code and cannot post messages. Slot 0 holds a step index
 * (>= 0) or one of these markers.
 */
export const PHASE_IDLE = -1;
export const PHASE_DEFINITION = -2;
export const PHASE_METRIC = -3;
/** Int32 slots in the buffer. */
export const PROGRESS_SLOTS = 1;
