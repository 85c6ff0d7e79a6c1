/**
 * A pool of analysis workers (Comlink). Cases go to whichever worker is free in batches, one
 * call per batch (as the command's Node pool does, with larger batches: the contract's PAGE_MAX_BATCH), so a worker goes straight from one case to the
 * next instead of idling for a round trip; it posts each case's outcome as it finishes. Every case
 * is timed on its own, and a worker that runs past the limit is terminated and replaced, so a
 * hostile or buggy definition costs one case (see #runBatch and #runItem), never the page. A worker
 * lost with its process (out of memory, in its sandboxed frame: analysis-frame.ts) costs one case
 * too: the call that was running alone when it was lost (call-gate.ts). Results come back by case index:
 * every case is analysed on its own with the same settings and seed, so the results do not depend
 * on how many workers there are or which one ran which case.
 */
import * as Comlink from 'comlink';
import type { ModelAnswer, PendingRequest } from '../../engine/model-call.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import type { TableGame } from '../../engine/table-game.ts';
import { errorResult } from '../../engine/case-result.ts';
import {
  batchSizeFor,
  caseErrorResult,
  pageBatchSize,
  definitionTimedOutMessage,
  nextModelAnswers,
  PHASE_DEFINITION,
  PHASE_RECEIVING,
  phaseText,
  preparationAllowanceMs,
  timedOutResult,
  withModelUsage,
  type ModelResolver,
} from '../contract.ts';
import { isCaseDoneGroup, isCaseDoneMessage, isWatchdogMessage, type AnalysisWorker, type AnalysisWorkerApi, type CallOutcome, type CaseDoneMessage, type LoadOutcome, type RegressionGameOutcome, type VersionFile } from './protocol.ts';
import { CallGate, type Release } from './call-gate.ts';
import type { PoolJob, WorkItem } from '../study-pool.ts';
import { joinCoalitions } from '../../engine/packed-coalitions.ts';
import { raceTimeout, realTimer, restartableLimit, TIMED_OUT, type StartTimer } from './race-timeout.ts';
import { isModelWaitMessage, isWaitMoreMessage, waitChunks, type WaitAnswer, type WaitChunk } from './wait-channel.ts';

export type { PoolJob, WorkItem };

export { batchSizeFor };

/** How a model is set up on the page, for the error of a model step without one. */
const NO_MODEL = 'no model is set up: open Settings > Model';


function isPending(outcome: CallOutcome): outcome is { pending: PendingRequest[] } {
  return Array.isArray((outcome as { pending?: unknown }).pending);
}

interface Slot {
  worker: AnalysisWorker;
  api: Comlink.Remote<AnalysisWorkerApi>;
  /** The definition this worker has compiled, if any. */
  source: string | null;
  /** A call into this worker is in flight. */
  busy: boolean;
  /** The step the running case last started (a step index or a PHASE_* marker of pool/contract.ts), from the worker's watchdog messages. */
  currentStep: number | null;
  /** Called with each case outcome a running batch posts (position in the batch). */
  onCaseDone: ((position: number, outcome: CallOutcome) => void) | null;
  /** Called when the running call's case waits for a model response (wait-channel.ts), and asks for its next chunk. */
  onModelWait: ((request: PendingRequest) => void) | null;
  onWaitMore: (() => void) | null;
  /** Settles when the worker is lost (never, for workers whose loss cannot be seen). */
  lost: Promise<WorkerLost>;
  /** Why the worker was lost, once it was. */
  gone: string | null;
}

/** A call ended by the loss of its worker (its process crashed), with why. */
class WorkerLost {
  constructor(readonly reason: string) {}
}

const NEVER = new Promise<never>(() => {});

/** The error of a case whose worker was lost while it ran alone, naming where it was. */
function lostResult(caseId: string, players: readonly string[], settings: AnalysisSettings, phase: number | null, reason: string): CaseResult {
  return caseErrorResult(caseId, players, settings, `the worker was lost${phaseText(phase, players)}: ${reason}`);
}

/**
 * How a call runs: plainly; watched (each step it starts reported), after it ran out of time; or
 * watched and alone in the pool, after its worker was lost.
 */
type CallMode = 'plain' | 'watched' | 'alone';

/**
 * A case's model rounds so far: the responses it knows, the fetches made for it (restarted rounds
 * and waited responses alike: the round limit and the usage count both), whether its next round
 * waits for each response it lacks (wait-channel.ts) instead of answering its requests, and how.
 */
interface ModelRounds {
  answers: Record<string, ModelAnswer> | undefined;
  fetches: number;
  waiting: boolean;
  /** Fetches one response a waiting round lacks. */
  wait(request: PendingRequest): Promise<WaitAnswer>;
  /** Why a response a waiting round asked for could not be had: the case's error, as a restarting round's failed fetch gives it. */
  failed: string | null;
}


/** A batch's case outcome with its packed coalition table put back. */
function withCoalitions(message: CaseDoneMessage): CallOutcome {
  const { outcome, coalitions } = message;
  return isPending(outcome) ? outcome : joinCoalitions(outcome, coalitions);
}

/**
 * Largest definition the other workers compile while the first one describes it (with its cases
 * skipped, before the pool knows whether it lists cases inline): 200 000 characters compile in
 * tens of milliseconds; a larger text is compiled once, without its case list.
 */
const PARALLEL_COMPILE_MAX_CHARS = 200_000;

const CANCELLED: unique symbol = Symbol('cancelled');

export class PageAnalysisPool {
  readonly #slots: Slot[] = [];
  readonly #createWorker: () => AnalysisWorker;
  readonly #gate = new CallGate();
  /** The definition last described, and the text the workers analyse it with. */
  #described: { source: string; analysisSource: string } | null = null;
  /** Time limit for one case (and for compiling a definition), in milliseconds. */
  caseTimeoutMs: number;
  /** Times the limits (the wall clock; a test's clock expires only stuck calls). */
  readonly #startTimer: StartTimer;
  /**
   * Whether a case whose round asked for exactly one request (a chain) runs its next round waiting
   * for each response it lacks, instead of restarting once per request (docs/replay.md, "Time").
   * Only cross-origin isolated pages can (shared memory); a worker without a wait buffer restarts anyway.
   */
  waitOnChains = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;

  constructor(size: number, createWorker: () => AnalysisWorker, caseTimeoutMs = 10_000, startTimer: StartTimer = realTimer) {
    this.#createWorker = createWorker;
    this.caseTimeoutMs = caseTimeoutMs;
    this.#startTimer = startTimer;
    for (let i = 0; i < Math.max(1, size); i++) this.#slots.push(this.#startSlot());
  }

  get size(): number {
    return this.#slots.length;
  }

  /**
   * Asks each worker that is idle and has compiled nothing yet to warm its engine up (the page calls
   * this when it is idle after loading): the user's first analysis then runs on compiled code. The
   * worker stops warming at the first real call; a worker lost meanwhile is noticed by that call.
   */
  warmUp(): void {
    for (const slot of this.#slots) if (!slot.busy && slot.source === null && slot.gone === null) slot.api.warmUp().catch(() => {});
  }

  /** Calls in the workers now, beside others or alone: for tests. */
  get callsRunning(): number {
    return this.#gate.running;
  }

  /**
   * Describes a definition in the first worker and compiles it in the others at the same time,
   * with the same time limit as a case, so that all of them start on cases together (compiling in
   * the sandbox is about as long as a hundred small cases; one after the other, the second worker's
   * compile was on the way to every first result). The others never read the definition's cases
   * (each used to re-parse and re-check every listed case): they compile it with its
   * cases skipped, and when the description shows an inline case list (text to analyse without it),
   * they compile that text again; a source too large for that extra compile to be cheap waits for
   * the description instead. Answers the first worker's outcome.
   */
  async load(source: string, fileName: string): Promise<LoadOutcome> {
    const others = this.#slots.slice(1).map((_, i) => i + 1);
    const parallel = source.length <= PARALLEL_COMPILE_MAX_CHARS;
    const [outcome] = await Promise.all([
      this.#loadInSlot(0, source, fileName, true),
      ...(parallel ? others.map((slotIndex) => this.#loadInSlot(slotIndex, source, fileName, false)) : []),
    ]);
    if (!outcome.ok) {
      // A definition whose description failed (its listed cases, say) is loaded nowhere.
      for (const slotIndex of others) if (this.#slots[slotIndex].source === source) this.#slots[slotIndex].source = null;
      return outcome;
    }
    this.#described = { source, analysisSource: outcome.analysisSource ?? source };
    if (!parallel || outcome.analysisSource !== undefined) {
      // The first compile had the inline case list: each slot compiles the text without it.
      for (const slotIndex of others) this.#slots[slotIndex].source = null;
      await Promise.all(others.map((slotIndex) => this.#loadInSlot(slotIndex, source, fileName, false)));
    }
    return outcome;
  }

  /** A worker lost while compiling beside others is tried again alone; lost alone, the definition is the cause. */
  async #loadInSlot(slotIndex: number, source: string, fileName: string, describe: boolean): Promise<LoadOutcome> {
    const text = describe ? source : this.#analysisSource(source);
    const limitMs = this.#loadLimitMs(text);
    for (const alone of [false, true]) {
      const release = (await (alone ? this.#gate.alone() : this.#gate.shared()))!;
      const slot = this.#liveSlot(slotIndex);
      slot.busy = true;
      const outcome = await releasedIfThrown(Promise.race([raceTimeout(this.#load(slot, text, fileName, describe), limitMs, this.#startTimer), slot.lost]), release, slot);
      slot.busy = false;
      // Workers are replaced before the gate lets the next call in, so none starts on a lost one.
      if (outcome instanceof WorkerLost) {
        if (alone) this.#replaceAfterLossAlone();
        else this.#replace(slotIndex);
        release();
        if (alone) return { ok: false, problem: { message: `${fileName}: evaluating the definition: the worker was lost: ${outcome.reason}` } };
        continue;
      }
      if (outcome === TIMED_OUT) {
        this.#replace(slotIndex);
        release();
        return { ok: false, problem: { message: definitionTimedOutMessage(fileName, this.caseTimeoutMs, preparationAllowanceMs(text)) } };
      }
      release();
      // A worker whose load failed has dropped the definition it had, whichever it was.
      slot.source = outcome.ok ? source : null;
      return outcome;
    }
    throw new Error('unreachable: the second load runs alone');
  }

  /** The text workers analyse `source` with: without its inline case list, once a worker described it. */
  #analysisSource(source: string): string {
    return this.#described?.source === source ? this.#described.analysisSource : source;
  }

  /**
   * Builds the regression game of `after` against `before` in the first worker (docs/ci.md): reading
   * both definitions runs their top level, so it gets the time limit of compiling both, and a worker
   * that runs past it or is lost is replaced; the other slots go on meanwhile.
   */
  async regressionGame(after: VersionFile, before: VersionFile): Promise<RegressionGameOutcome> {
    const release = (await this.#gate.shared())!;
    const slot = this.#liveSlot(0);
    slot.busy = true;
    const limitMs = this.#loadLimitMs(after.source) + this.#loadLimitMs(before.source);
    const call = slot.api.regressionGame(after, before) as Promise<RegressionGameOutcome>;
    const outcome = await releasedIfThrown(Promise.race([raceTimeout(call, limitMs, this.#startTimer), slot.lost]), release, slot);
    slot.busy = false;
    if (outcome instanceof WorkerLost || outcome === TIMED_OUT) this.#replace(0);
    release();
    if (outcome instanceof WorkerLost) return { ok: false, message: `${before.fileName}: building the regression game: the worker was lost: ${outcome.reason}` };
    if (outcome === TIMED_OUT) return { ok: false, message: `${before.fileName}: building the regression game took longer than ${Math.round(limitMs / 1000)} s (the time limit of compiling both versions)` };
    return outcome;
  }

  /**
   * Runs every item; resolves 'cancelled' as soon as `signal` aborts (busy workers are replaced).
   * A call that rejects fails the run as a cancel stops it: once the other workers' calls have
   * stopped, so that nothing of the failed run is still running when the next one starts.
   */
  async run(job: PoolJob, signal: AbortSignal): Promise<'done' | 'cancelled'> {
    let next = 0;
    // Aborted by the caller, or by the run itself when a call rejects.
    const stopping = new AbortController();
    const stopped = stopping.signal;
    const cancelled = new Promise<typeof CANCELLED>((resolve) => {
      // Replace busy workers at once, before a following run can pick their slots up.
      const stopBusyWorkers = () => {
        this.#slots.forEach((slot, i) => slot.busy && this.#replace(i));
        resolve(CANCELLED);
      };
      stopped.addEventListener('abort', stopBusyWorkers, { once: true });
    });
    if (signal.aborted) stopping.abort();
    signal.addEventListener('abort', () => stopping.abort(), { once: true });
    const batchSize = pageBatchSize(job.items.length, this.#slots.length);
    const drain = async (slotIndex: number): Promise<void> => {
      while (!stopped.aborted && next < job.items.length) {
        // Consecutive cases go as one batch; a table game (cheap, no definition) goes alone.
        const batch: WorkItem[] = [];
        while (next < job.items.length && batch.length < batchSize && job.items[next].kind === 'case') batch.push(job.items[next++]);
        if (batch.length > 0) {
          if ((await this.#runBatch(slotIndex, batch, job, cancelled, stopped)) === CANCELLED) return;
          continue;
        }
        const item = job.items[next++];
        const result = await this.#runWithModel(slotIndex, item, job, cancelled, stopped);
        if (result === CANCELLED) return;
        job.onResult(item.index, result);
      }
    };
    const ended = await Promise.allSettled(
      this.#slots.map((_, i) =>
        drain(i).catch((error: unknown) => {
          stopping.abort();
          throw error;
        }),
      ),
    );
    const failure = ended.find((outcome) => outcome.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
    return signal.aborted ? 'cancelled' : 'done';
  }

  dispose(): void {
    for (const slot of this.#slots) slot.worker.terminate();
    this.#slots.length = 0;
  }

  /**
   * Runs consecutive cases in one call. Each case has its own time limit: the timer restarts as
   * each outcome arrives. A case that runs out of time loses the worker; the cases before it keep
   * their outcomes, it is re-run alone with its steps reported (to name the stuck step), and the
   * cases after it run one by one. A worker lost with its process is handled the same way, except
   * that the case it was on is re-run alone in the pool (#runItem). A case waiting for model
   * responses continues in rounds.
   */
  async #runBatch(slotIndex: number, batch: WorkItem[], job: PoolJob, cancelled: Promise<typeof CANCELLED>, signal: AbortSignal): Promise<void | typeof CANCELLED> {
    const cases = batch.map((item) => (item as Extract<WorkItem, { kind: 'case' }>).caseDef);
    const entered = await this.#enter(slotIndex, job, 'plain', cancelled, signal);
    if (entered === CANCELLED) return CANCELLED;
    if (typeof entered === 'string') {
      for (const item of batch) job.onResult(item.index, errorResult(cases[batch.indexOf(item)].id, [...job.players], job.settings, entered));
      return;
    }
    const { release, lost } = entered;
    const slot = this.#slots[slotIndex];
    const outcomes: CallOutcome[] = [];
    const limit = restartableLimit(this.caseTimeoutMs, this.#startTimer);
    slot.busy = true;
    slot.currentStep = null;
    slot.onCaseDone = (position, outcome) => {
      outcomes[position] = outcome;
      limit.start();
    };
    limit.start();
    // Lost while its definition was being compiled (beside others): as if lost before its first case.
    let ended: number | typeof TIMED_OUT | typeof CANCELLED | WorkerLost;
    try {
      ended = lost ?? (await releasedIfThrown(Promise.race([slot.api.analyzeCases(cases, job.settings) as Promise<number>, limit.expiry, cancelled, slot.lost]), release, slot));
    } finally {
      limit.stop();
      slot.onCaseDone = null;
      slot.busy = false;
    }
    const stopped = ended === TIMED_OUT ? 'timed out' : ended instanceof WorkerLost ? 'lost' : null;
    if (stopped !== null) this.#replace(slotIndex);
    release();
    if (ended === CANCELLED) return CANCELLED;
    const finished = outcomes.length;
    for (let position = 0; position < batch.length; position++) {
      const item = batch[position];
      let result: CaseResult | typeof CANCELLED;
      if (position < finished) result = await this.#runWithModel(slotIndex, item, job, cancelled, signal, outcomes[position]);
      else if (position === finished && stopped !== null) result = await this.#runWithModel(slotIndex, item, job, cancelled, signal, undefined, stopped);
      else result = await this.#runWithModel(slotIndex, item, job, cancelled, signal);
      if (result === CANCELLED) return CANCELLED;
      job.onResult(item.index, result);
    }
  }

  /**
   * Runs an item in rounds: while its case waits for model responses, fetch them through the job's
   * model host (the worker is free meanwhile only in the sense that this slot waits; other slots go
   * on) and run it again with everything known so far. `first` is an outcome of round 0 already
   * known (from a batch); `stopped` says the item already ran out of time, or lost its worker, once.
   */
  async #runWithModel(
    slotIndex: number,
    item: WorkItem,
    job: PoolJob,
    cancelled: Promise<typeof CANCELLED>,
    signal: AbortSignal,
    first?: CallOutcome,
    stopped: 'timed out' | 'lost' | null = null,
  ): Promise<CaseResult | typeof CANCELLED> {
    const id = item.kind === 'case' ? item.caseDef.id : item.game.id;
    const players = item.kind === 'case' ? [...job.players] : [...item.game.players];
    const fetch = (requests: readonly PendingRequest[]) => {
      rounds.fetches++;
      return nextModelAnswers({ caseId: id, requests, known: rounds.answers, round: rounds.fetches, maxRounds: job.maxModelRounds, model: job.model, noModel: NO_MODEL, signal });
    };
    const rounds: ModelRounds = {
      answers: undefined,
      fetches: 0,
      waiting: false,
      failed: null,
      wait: async (request) => {
        const next = await fetch([request]);
        if (!next.ok) {
          rounds.failed = next.error;
          return { error: next.error };
        }
        // Kept even if the worker is lost meanwhile: the case, run again, needs not wait for it again.
        rounds.answers = next.answers;
        job.model?.countRound?.('wait');
        return { answer: next.answers[request.key] };
      },
    };
    for (let round = 0; ; round++) {
      const outcome = round === 0 && first !== undefined ? first : await this.#runItem(slotIndex, item, job, cancelled, signal, rounds, round === 0 ? stopped : null);
      if (outcome === CANCELLED) return CANCELLED;
      if (rounds.failed !== null) return caseErrorResult(id, players, job.settings, rounds.failed);
      if (!isPending(outcome)) return withModelUsage(outcome, rounds.fetches, job.model);
      const next = await Promise.race([fetch(outcome.pending), cancelled]);
      if (next === CANCELLED || signal.aborted) return CANCELLED;
      if (!next.ok) return caseErrorResult(id, players, job.settings, next.error);
      rounds.answers = next.answers;
      job.model?.countRound?.('restart');
      // A round that asked for one request is a chain so far: the next waits for each response instead of restarting per request.
      rounds.waiting = this.waitOnChains && outcome.pending.length === 1;
    }
  }

  /**
   * Runs an item until it answers. A call that runs out of time is run again in a fresh worker,
   * watched: naming the stuck step needs a message per step, which would slow every case several
   * times over, and replay is deterministic, so it gets stuck in the same place. A call whose worker
   * is lost is run again alone in the pool (the workers may share the lost process, so any call then
   * running was lost with it): lost again alone, the item is the cause. `stopped`: what already
   * happened to it once (in a batch).
   */
  async #runItem(
    slotIndex: number,
    item: WorkItem,
    job: PoolJob,
    cancelled: Promise<typeof CANCELLED>,
    signal: AbortSignal,
    rounds?: ModelRounds,
    stopped: 'timed out' | 'lost' | null = null,
  ): Promise<CallOutcome | typeof CANCELLED> {
    const id = item.kind === 'case' ? item.caseDef.id : item.game.id;
    const players = item.kind === 'case' ? [...job.players] : [...item.game.players];
    let mode: CallMode = stopped === 'lost' ? 'alone' : stopped === 'timed out' ? 'watched' : 'plain';
    for (;;) {
      const entered = await this.#enter(slotIndex, item.kind === 'case' ? job : null, mode, cancelled, signal);
      if (entered === CANCELLED) return CANCELLED;
      if (typeof entered === 'string') return errorResult(id, players, job.settings, entered);
      const { release, lost } = entered;
      const outcome = lost ?? (await releasedIfThrown(this.#call(slotIndex, item, job, cancelled, mode, rounds), release, this.#slots[slotIndex]));
      // The gate is held until lost or stuck workers are replaced, so no call starts on one.
      if (outcome === CANCELLED) {
        release();
        return CANCELLED;
      }
      if (outcome instanceof WorkerLost) {
        const step = lost !== null ? PHASE_DEFINITION : this.#slots[slotIndex].currentStep;
        if (mode === 'alone') this.#replaceAfterLossAlone();
        else this.#replace(slotIndex);
        release();
        if (mode === 'alone') return lostResult(id, players, job.settings, step, outcome.reason);
        mode = 'alone';
        continue;
      }
      if (outcome !== TIMED_OUT) {
        release();
        return outcome;
      }
      // A watched case reports where it is from its start: nothing reported, it never started.
      const step = mode === 'plain' ? null : (this.#slots[slotIndex].currentStep ?? (item.kind === 'case' ? PHASE_RECEIVING : null));
      this.#replace(slotIndex);
      release();
      if (mode !== 'plain') return timedOutResult(id, players, job.settings, this.caseTimeoutMs, step);
      mode = 'watched';
    }
  }

  /**
   * Waits at the gate for a call in `mode` (alone, or beside others), starts a fresh worker if the
   * slot's was lost meanwhile, and makes sure it has the job's definition (`job` null: none needed).
   * Answers the gate's release, to hold until the call has ended and a lost or stuck worker is
   * replaced, with `lost` set if the worker was lost while compiling the definition; else why not
   * (the gate released): cancelled, or the definition's problem.
   */
  async #enter(slotIndex: number, job: PoolJob | null, mode: CallMode, cancelled: Promise<typeof CANCELLED>, signal: AbortSignal): Promise<{ release: Release; lost: WorkerLost | null } | typeof CANCELLED | string> {
    const release = await (mode === 'alone' ? this.#gate.alone(signal) : this.#gate.shared(signal));
    if (release === null) return CANCELLED;
    const slot = this.#liveSlot(slotIndex);
    const loaded = job === null ? true : await releasedIfThrown(this.#ensureLoaded(slotIndex, job.source, job.fileName ?? 'pipeline.js', cancelled), release, slot);
    if (loaded === true) return { release, lost: null };
    if (loaded instanceof WorkerLost) return { release, lost: loaded };
    release();
    return loaded;
  }

  /**
   * One timed call into a slot's worker; watched modes ask it to report each step it starts. A
   * waiting round's clock stops while its worker waits for a model response, and starts afresh
   * once the response is handed over (as a restarted round's would): the model's time is not the case's.
   */
  async #call(
    slotIndex: number,
    item: WorkItem,
    job: PoolJob,
    cancelled: Promise<typeof CANCELLED>,
    mode: CallMode,
    rounds?: ModelRounds,
  ): Promise<CallOutcome | typeof CANCELLED | typeof TIMED_OUT | WorkerLost> {
    const slot = this.#slots[slotIndex];
    slot.busy = true;
    slot.currentStep = null;
    const watch = mode !== 'plain';
    const worker = slot.worker;
    const waiting = item.kind === 'case' && rounds?.waiting === true && worker.sendWaitChunk !== undefined;
    const call: Promise<CallOutcome> =
      item.kind === 'case' ? (slot.api.analyzeCase(item.caseDef, job.settings, watch, rounds?.answers, waiting) as Promise<CallOutcome>) : slot.api.analyzeGame(item.game, job.settings);
    let active = true;
    const limit = restartableLimit(this.caseTimeoutMs, this.#startTimer);
    limit.start();
    if (waiting) {
      let chunks: WaitChunk[] = [];
      const sendChunk = () => {
        const chunk = chunks.shift();
        if (!active || chunk === undefined) return;
        worker.sendWaitChunk!(chunk);
        if (chunk.last) limit.start();
      };
      slot.onWaitMore = sendChunk;
      slot.onModelWait = (request) => {
        limit.stop();
        void rounds.wait(request).then((answer) => {
          // A call that ended meanwhile (cancelled, its worker lost) has no one waiting.
          if (!active) return;
          chunks = waitChunks(answer);
          sendChunk();
        });
      };
    }
    try {
      // A call into a terminated worker never settles: the expiry, a cancel or the worker's loss end it.
      return await Promise.race([call, limit.expiry, cancelled, slot.lost]);
    } finally {
      active = false;
      limit.stop();
      slot.onModelWait = null;
      slot.onWaitMore = null;
      slot.busy = false;
    }
  }

  /** True when the slot's worker has the job's definition compiled, else why it could not be (or that its worker was lost). */
  async #ensureLoaded(slotIndex: number, source: string | undefined, fileName: string, cancelled: Promise<typeof CANCELLED>): Promise<true | string | typeof CANCELLED | WorkerLost> {
    if (source === undefined) return 'No pipeline definition is open: drop its .js file next to the trace.';
    const slot = this.#slots[slotIndex];
    if (slot.source === source) return true;
    slot.busy = true;
    // A definition this pool has not described is described here (its cases checked).
    const described = this.#described?.source === source;
    const text = this.#analysisSource(source);
    const limitMs = this.#loadLimitMs(text);
    const outcome = await Promise.race([raceTimeout(this.#load(slot, text, fileName, !described), limitMs, this.#startTimer), cancelled, slot.lost]);
    slot.busy = false;
    if (outcome === CANCELLED || outcome instanceof WorkerLost) return outcome;
    if (outcome === TIMED_OUT) {
      this.#replace(slotIndex);
      return definitionTimedOutMessage(fileName, this.caseTimeoutMs, preparationAllowanceMs(text));
    }
    if (!outcome.ok) return outcome.problem.message;
    if (!described) this.#described = { source, analysisSource: outcome.analysisSource ?? source };
    slot.source = source;
    return true;
  }

  /** A definition's compile gets a case's time limit plus the allowance for its size (pool/contract.ts). */
  #loadLimitMs(source: string): number {
    return this.caseTimeoutMs + preparationAllowanceMs(source);
  }

  /** Comlink types a union result as a union of promises; this restores one promise of the union. */
  #load(slot: Slot, source: string, fileName: string, describe: boolean): Promise<LoadOutcome> {
    return slot.api.load(source, fileName, describe) as Promise<LoadOutcome>;
  }

  #replace(slotIndex: number): void {
    this.#slots[slotIndex].worker.terminate();
    this.#slots[slotIndex] = this.#startSlot();
  }

  /**
   * After a worker was lost running alone, every worker is replaced: the others were idle, most
   * likely in the same process, and lost with it before their own loss was noticed; a call alone on
   * one of them would be lost at once and wrongly charged.
   */
  #replaceAfterLossAlone(): void {
    for (let i = 0; i < this.#slots.length; i++) this.#replace(i);
  }

  /** The slot, with a fresh worker if its own was lost while idle (another worker of its process ran out of memory). */
  #liveSlot(slotIndex: number): Slot {
    if (this.#slots[slotIndex].gone !== null) this.#replace(slotIndex);
    return this.#slots[slotIndex];
  }

  #startSlot(): Slot {
    const worker = this.#createWorker();
    const slot: Slot = { worker, api: Comlink.wrap<AnalysisWorkerApi>(worker), source: null, busy: false, currentStep: null, onCaseDone: null, onModelWait: null, onWaitMore: null, lost: NEVER, gone: null };
    if (worker.lost)
      slot.lost = worker.lost.then((reason) => {
        slot.gone = reason;
        return new WorkerLost(reason);
      });
    worker.addEventListener('message', (event) => {
      const { data } = event as MessageEvent;
      if (isWatchdogMessage(data)) slot.currentStep = data.agentblameWatchdog;
      else if (isCaseDoneMessage(data)) slot.onCaseDone?.(data.agentblameCaseDone, withCoalitions(data));
      else if (isCaseDoneGroup(data)) for (const done of data.agentblameCasesDone) slot.onCaseDone?.(done.agentblameCaseDone, withCoalitions(done));
      else if (isModelWaitMessage(data)) slot.onModelWait?.(data.agentblameModelWait);
      else if (isWaitMoreMessage(data)) slot.onWaitMore?.();
    });
    return slot;
  }
}

/**
 * Awaits a call made under the gate. A call that rejects (the worker threw outside its own error
 * handling, or a value could not be cloned) fails the run as it always did, but first frees its
 * slot and the gate, which would otherwise stay held for good: every later call waits at a held gate.
 */
async function releasedIfThrown<T>(call: Promise<T>, release: Release, slot: Slot): Promise<T> {
  try {
    return await call;
  } catch (error) {
    slot.busy = false;
    release();
    throw error;
  }
}
