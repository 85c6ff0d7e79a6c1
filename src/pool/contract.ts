/**
 * What the two analysis pools share (the page's PageAnalysisPool over Web Workers, the command's
 * NodeAnalysisPool over worker threads or processes), so a case is treated the same by both
 * (docs/architecture.md, "Analysis pools"): batch size, time limits (a case's own, plus an
 * allowance for compiling a definition new to a worker), the markers a worker reports for where a
 * case is, the error results of a case stopped or lost, and the rounds of model requests. How each
 * pool stops a worker is its own (Web Workers cannot be asked where they are while they spin).
 */
import type { ModelAnswer, ModelUsage, PendingRequest } from '../engine/model-call.ts';
import type { AnalysisSettings, CaseResult, ErrorCaseResult } from '../engine/types.ts';
import { errorResult } from '../engine/case-result.ts';

/** Largest batch of cases per call: small, so the work still spreads evenly over the workers. */
export const MAX_BATCH = 16;

/**
 * Largest batch of cases the page sends a worker in one call. In the page each batch's answer and
 * the next batch go through the page's main thread, which on a 2-core machine often answers
 * 25-70 ms late while it renders or stores results: traces of the 400-case agent demo showed each
 * of 2 workers idle 0.2-0.9 s between its 12-13 batches (bench/README.md, "Page speed").
 */
export const PAGE_MAX_BATCH = 48;

/** Rounds of model requests one case may take before it is given up (a definition that asks for ever new requests). */
export const MAX_MODEL_ROUNDS = 500;

/** Where a worker is: a step index (>= 0) or one of these markers. */
export const PHASE_IDLE = -1;
export const PHASE_DEFINITION = -2;
export const PHASE_METRIC = -3;
/** Running what a case left behind (promise callbacks) before it is answered. */
export const PHASE_DEFERRED = -4;
/** Copying the case's inputs into the sandbox (sealed plain data), after the definition's instance is made. */
export const PHASE_INPUTS = -5;
/** Not started: the worker was still receiving the case (its inputs copied across to it). */
export const PHASE_RECEIVING = -6;
/** Analysing a table game (it has no steps to name). */
export const PHASE_GAME = -7;

/** " in step \"x\"", " in the metric", ...: where a case was when it was stopped ('' when unknown). */
export function phaseText(phase: number | null, players: readonly string[]): string {
  if (phase === null) return '';
  if (phase >= 0 && phase < players.length) return ` in step "${players[phase]}"`;
  if (phase === PHASE_METRIC) return ' in the metric';
  if (phase === PHASE_DEFINITION) return ' while evaluating the definition';
  if (phase === PHASE_DEFERRED) return ' in promise callbacks its steps left running';
  if (phase === PHASE_INPUTS) return " before its first step, while copying the case's inputs into the sandbox";
  if (phase === PHASE_RECEIVING) return " before its first step, while the case's inputs were being copied to the worker";
  return '';
}

/** The pool owner's model host, as both pools use it (docs/model-host.md). */
export interface ModelResolver {
  /** Answers from the cache, or sends each distinct request once. */
  resolve(requests: (PendingRequest & { caseId: string })[], signal?: AbortSignal): Promise<Map<string, ModelAnswer>>;
  /** Requests, cache hits and tokens charged to one case. */
  usage(caseId: string): ModelUsage;
  /**
   * Told of each round a pool runs for a case after its first: one restarted from the case's start
   * with the responses fetched, or one response handed to a waiting round (docs/replay.md, "Time").
   */
  countRound?(kind: 'restart' | 'wait'): void;
}

/** About two batches per worker for a short run, so the workers finish together; `max` (MAX_BATCH) for long ones. */
export function batchSizeFor(cases: number, workers: number, max = MAX_BATCH): number {
  return Math.max(1, Math.min(max, Math.ceil(cases / (2 * Math.max(1, workers)))));
}

/** The batch rule (batchSizeFor) with the page's larger cap. */
export function pageBatchSize(cases: number, workers: number): number {
  return batchSizeFor(cases, workers, PAGE_MAX_BATCH);
}

/**
 * Time added to the limit of the first case (or the compile) a worker runs of a definition it has
 * not seen: 1 s per 100 000 characters of source, for parsing, compiling and checking the
 * definition's own cases. A small definition gets nothing noticeable; a spinning one is still
 * stopped after the case limit and this.
 */
export function preparationAllowanceMs(source: string): number {
  return Math.ceil(source.length / 100_000) * 1000;
}

/** `10 s`, `0.5 s`. */
export function formatDuration(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** A case's error result, its message prefixed with the case (the form every pool uses). */
export function caseErrorResult(caseId: string, players: readonly string[], settings: Pick<AnalysisSettings, 'method'>, message: string): ErrorCaseResult {
  return errorResult(caseId, players, settings, `case "${caseId}": ${message}`);
}

/** `10 s`, or `12 s (10 s + 2 s to compile the definition)` for a limit with a preparation allowance. */
export function formatLimit(limitMs: number, allowanceMs = 0): string {
  if (allowanceMs <= 0) return formatDuration(limitMs);
  return `${formatDuration(limitMs + allowanceMs)} (${formatDuration(limitMs)} + ${formatDuration(allowanceMs)} to compile the definition)`;
}

/**
 * A case stopped at its time limit (its worker was replaced), naming where it was; `allowanceMs`:
 * the preparation allowance it had on top (the first case of a definition new to its worker).
 */
export function timedOutResult(caseId: string, players: readonly string[], settings: Pick<AnalysisSettings, 'method'>, limitMs: number, phase: number | null, allowanceMs = 0): ErrorCaseResult {
  return caseErrorResult(caseId, players, settings, `timed out after ${formatLimit(limitMs, allowanceMs)}${phaseText(phase, players)}`);
}

/** A definition whose top level ran past its time limit plus its preparation allowance. */
export function definitionTimedOutMessage(fileName: string, limitMs: number, allowanceMs: number): string {
  return `${fileName}: evaluating the definition timed out after ${formatLimit(limitMs, allowanceMs)}`;
}

/**
 * One round of model requests for a case that waits on them: fetch what it asks for through the
 * model host and return every answer known so far, or the case's error message (no host, a host
 * that failed, more than MAX_MODEL_ROUNDS rounds). `round` counts from 1; `noModel` tells the user
 * how to set a model up where they are (the page's settings, the command's flags).
 */
export async function nextModelAnswers(options: {
  caseId: string;
  requests: readonly PendingRequest[];
  known: Readonly<Record<string, ModelAnswer>> | null | undefined;
  round: number;
  /** Rounds allowed when more than MAX_MODEL_ROUNDS (a replay's request bound plus one); never fewer. */
  maxRounds?: number;
  model: ModelResolver | undefined;
  noModel: string;
  signal?: AbortSignal;
}): Promise<{ ok: true; answers: Record<string, ModelAnswer> } | { ok: false; error: string }> {
  const { caseId, requests, model } = options;
  const step = requests[0]?.step ?? '?';
  if (!model) return { ok: false, error: `step "${step}" calls a model (llm.chat or llm.choose), but ${options.noModel}` };
  const maxRounds = Math.max(MAX_MODEL_ROUNDS, options.maxRounds ?? 0);
  if (options.round > maxRounds) {
    return { ok: false, error: `step "${step}" still asks for new model requests after ${maxRounds} rounds; a step's requests must follow from its inputs and earlier answers` };
  }
  let fetched: Map<string, ModelAnswer>;
  try {
    fetched = await model.resolve(requests.map((request) => ({ ...request, caseId })), options.signal);
  } catch (error) {
    return { ok: false, error: `model requests of step "${step}" failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const answers: Record<string, ModelAnswer> = { ...options.known };
  for (const request of requests) {
    answers[request.key] = fetched.get(request.key) ?? { error: `the model host returned no answer for a request of step "${request.step}"` };
  }
  return { ok: true, answers };
}

/** A finished case with the model usage charged to it, when it took model rounds and has no error. */
export function withModelUsage(result: CaseResult, rounds: number, model: ModelResolver | undefined): CaseResult {
  return rounds > 0 && model && result.error === undefined ? { ...result, usage: model.usage(result.id) } : result;
}
