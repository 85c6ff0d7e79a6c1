/**
 * A pool of analysis workers (Comlink). Cases go to whichever worker is free in batches, one
 * call per batch (as the command's Node pool does, with larger batches: page-batch-size.ts), so a worker goes straight from one case to the
 * next instead of idling for a round trip; it posts each case's outcome as it finishes. Every case
 * is timed on its own, and a worker that runs past the limit is terminated and replaced, so a
 * hostile or buggy definition costs one case (see #runBatch and #runItem), never the page. Results come back by case index:
 * every case is analysed on its own with the same settings and seed, so the results do not depend
 * on how many workers there are or which one ran which case.
 */
import * as Comlink from 'comlink';
import type { ModelAnswer, PendingRequest } from '../../engine/model-call.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import type { TableGame } from '../../formats/game.ts';
import type { AnalysisWorkerApi } from './analysis.worker.ts';
import { errorResult } from '../../engine/case-result.ts';
import {
  batchSizeFor,
  caseErrorResult,
  definitionTimedOutMessage,
  nextModelAnswers,
  PHASE_RECEIVING,
  preparationAllowanceMs,
  timedOutResult,
  withModelUsage,
  type ModelResolver,
} from '../../engine/pool-contract.ts';
import { isCaseDoneMessage, isWatchdogMessage, type CallOutcome, type CaseDoneMessage, type LoadOutcome } from './protocol.ts';
import { joinCoalitions } from '../../engine/packed-coalitions.ts';
import { raceTimeout, TIMED_OUT } from './race-timeout.ts';
import { pageBatchSize } from './page-batch-size.ts';

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
}

export { batchSizeFor };

/** How a model is set up on the page, for the error of a model step without one. */
const NO_MODEL = 'no model is set up: open Settings > Model';


function isPending(outcome: CallOutcome): outcome is { pending: PendingRequest[] } {
  return Array.isArray((outcome as { pending?: unknown }).pending);
}

interface Slot {
  worker: Worker;
  api: Comlink.Remote<AnalysisWorkerApi>;
  /** The definition this worker has compiled, if any. */
  source: string | null;
  /** A call into this worker is in flight. */
  busy: boolean;
  /** The step the running case last started (a step index or a PHASE_* marker of engine/pool-contract.ts), from the worker's watchdog messages. */
  currentStep: number | null;
  /** Called with each case outcome a running batch posts (position in the batch). */
  onCaseDone: ((position: number, outcome: CallOutcome) => void) | null;
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
  readonly #createWorker: () => Worker;
  /** The definition last described, and the text the workers analyse it with. */
  #described: { source: string; analysisSource: string } | null = null;
  /** Time limit for one case (and for compiling a definition), in milliseconds. */
  caseTimeoutMs: number;

  constructor(size: number, createWorker: () => Worker, caseTimeoutMs = 10_000) {
    this.#createWorker = createWorker;
    this.caseTimeoutMs = caseTimeoutMs;
    for (let i = 0; i < Math.max(1, size); i++) this.#slots.push(this.#startSlot());
  }

  get size(): number {
    return this.#slots.length;
  }

  /**
   * Describes a definition in the first worker and compiles it in the others at the same time,
   * with the same time limit as a case, so that all of them start on cases together (compiling in
   * the sandbox is about as long as a hundred small cases; one after the other, the second worker's
   * compile was on the way to every first result). The others never read the definition's cases
   * (issue 10, defect 12: each re-parsed and re-checked every listed case): they compile it with its
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

  async #loadInSlot(slotIndex: number, source: string, fileName: string, describe: boolean): Promise<LoadOutcome> {
    const slot = this.#slots[slotIndex];
    slot.busy = true;
    const text = describe ? source : this.#analysisSource(source);
    const limitMs = this.#loadLimitMs(text);
    const outcome = await raceTimeout(this.#load(slot, text, fileName, describe), limitMs);
    slot.busy = false;
    if (outcome === TIMED_OUT) {
      this.#replace(slotIndex);
      return { ok: false, problem: { message: definitionTimedOutMessage(fileName, this.caseTimeoutMs, preparationAllowanceMs(text)) } };
    }
    if (outcome.ok) slot.source = source;
    return outcome;
  }

  /** The text workers analyse `source` with: without its inline case list, once a worker described it. */
  #analysisSource(source: string): string {
    return this.#described?.source === source ? this.#described.analysisSource : source;
  }

  /** Runs every item; resolves 'cancelled' as soon as `signal` aborts (busy workers are replaced). */
  async run(job: PoolJob, signal: AbortSignal): Promise<'done' | 'cancelled'> {
    let next = 0;
    const cancelled = new Promise<typeof CANCELLED>((resolve) => {
      if (signal.aborted) resolve(CANCELLED);
      // Replace busy workers at once, before a following run can pick their slots up.
      const stopBusyWorkers = () => {
        this.#slots.forEach((slot, i) => slot.busy && this.#replace(i));
        resolve(CANCELLED);
      };
      signal.addEventListener('abort', stopBusyWorkers, { once: true });
    });
    const batchSize = pageBatchSize(job.items.length, this.#slots.length);
    const drain = async (slotIndex: number): Promise<void> => {
      while (!signal.aborted && next < job.items.length) {
        // Consecutive cases go as one batch; a table game (cheap, no definition) goes alone.
        const batch: WorkItem[] = [];
        while (next < job.items.length && batch.length < batchSize && job.items[next].kind === 'case') batch.push(job.items[next++]);
        if (batch.length > 0) {
          if ((await this.#runBatch(slotIndex, batch, job, cancelled, signal)) === CANCELLED) return;
          continue;
        }
        const item = job.items[next++];
        const result = await this.#runWithModel(slotIndex, item, job, cancelled, signal);
        if (result === CANCELLED) return;
        job.onResult(item.index, result);
      }
    };
    await Promise.all(this.#slots.map((_, i) => drain(i)));
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
   * cases after it run one by one. A case waiting for model responses continues in rounds.
   */
  async #runBatch(slotIndex: number, batch: WorkItem[], job: PoolJob, cancelled: Promise<typeof CANCELLED>, signal: AbortSignal): Promise<void | typeof CANCELLED> {
    const cases = batch.map((item) => (item as Extract<WorkItem, { kind: 'case' }>).caseDef);
    const loaded = await this.#ensureLoaded(slotIndex, job.source, job.fileName ?? 'pipeline.js', cancelled);
    if (loaded === CANCELLED) return CANCELLED;
    if (loaded !== true) {
      for (const item of batch) job.onResult(item.index, errorResult(cases[batch.indexOf(item)].id, [...job.players], job.settings, loaded));
      return;
    }
    const slot = this.#slots[slotIndex];
    const outcomes: CallOutcome[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let expire: (value: typeof TIMED_OUT) => void = () => {};
    const expiry = new Promise<typeof TIMED_OUT>((resolve) => (expire = resolve));
    const restartTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => expire(TIMED_OUT), this.caseTimeoutMs);
    };
    slot.busy = true;
    slot.currentStep = null;
    slot.onCaseDone = (position, outcome) => {
      outcomes[position] = outcome;
      restartTimer();
    };
    restartTimer();
    const call = slot.api.analyzeCases(cases, job.settings) as Promise<number>;
    const ended = await Promise.race([call, expiry, cancelled]);
    clearTimeout(timer);
    slot.onCaseDone = null;
    slot.busy = false;
    if (ended === CANCELLED) return CANCELLED;
    const finished = outcomes.length;
    if (ended === TIMED_OUT) this.#replace(slotIndex);
    for (let position = 0; position < batch.length; position++) {
      const item = batch[position];
      let result: CaseResult | typeof CANCELLED;
      if (position < finished) result = await this.#runWithModel(slotIndex, item, job, cancelled, signal, outcomes[position]);
      else if (position === finished && ended === TIMED_OUT) result = await this.#runWithModel(slotIndex, item, job, cancelled, signal, undefined, true);
      else result = await this.#runWithModel(slotIndex, item, job, cancelled, signal);
      if (result === CANCELLED) return CANCELLED;
      job.onResult(item.index, result);
    }
  }

  /**
   * Runs an item in rounds: while its case waits for model responses, fetch them through the job's
   * model host (the worker is free meanwhile only in the sense that this slot waits; other slots go
   * on) and run it again with everything known so far. `first` is an outcome of round 0 already
   * known (from a batch); `timedOut` says the item already ran out of time once.
   */
  async #runWithModel(
    slotIndex: number,
    item: WorkItem,
    job: PoolJob,
    cancelled: Promise<typeof CANCELLED>,
    signal: AbortSignal,
    first?: CallOutcome,
    timedOut = false,
  ): Promise<CaseResult | typeof CANCELLED> {
    const id = item.kind === 'case' ? item.caseDef.id : item.game.id;
    const players = item.kind === 'case' ? [...job.players] : [...item.game.players];
    let answers: Record<string, ModelAnswer> | undefined;
    for (let round = 0; ; round++) {
      const outcome = round === 0 && first !== undefined ? first : await this.#runItem(slotIndex, item, job, cancelled, answers, round === 0 && timedOut);
      if (outcome === CANCELLED) return CANCELLED;
      if (!isPending(outcome)) return withModelUsage(outcome, round, job.model);
      const next = await Promise.race([
        nextModelAnswers({ caseId: id, requests: outcome.pending, known: answers, round: round + 1, model: job.model, noModel: NO_MODEL, signal }),
        cancelled,
      ]);
      if (next === CANCELLED || signal.aborted) return CANCELLED;
      if (!next.ok) return caseErrorResult(id, players, job.settings, next.error);
      answers = next.answers;
    }
  }

  /** `timedOut`: the item already ran out of time once (in a batch), so it goes straight to the watched run. */
  async #runItem(slotIndex: number, item: WorkItem, job: PoolJob, cancelled: Promise<typeof CANCELLED>, answers?: Record<string, ModelAnswer>, timedOut = false): Promise<CallOutcome | typeof CANCELLED> {
    const id = item.kind === 'case' ? item.caseDef.id : item.game.id;
    const players = item.kind === 'case' ? [...job.players] : [...item.game.players];
    if (!timedOut) {
      if (item.kind === 'case') {
        const loaded = await this.#ensureLoaded(slotIndex, job.source, job.fileName ?? 'pipeline.js', cancelled);
        if (loaded === CANCELLED) return CANCELLED;
        if (loaded !== true) return errorResult(id, players, job.settings, loaded);
      }
      const first = await this.#call(slotIndex, item, job, cancelled, false, answers);
      if (first !== TIMED_OUT) return first;
      // Naming the stuck step needs a message per step, which would slow every case several times
      // over; so only a case that ran out of time is run again, in a fresh worker, with its steps
      // reported. Replay is deterministic, so it gets stuck in the same place.
      this.#replace(slotIndex);
    }
    if (item.kind === 'case') {
      const loaded = await this.#ensureLoaded(slotIndex, job.source, job.fileName ?? 'pipeline.js', cancelled);
      if (loaded === CANCELLED) return CANCELLED;
      if (loaded !== true) return errorResult(id, players, job.settings, loaded);
    }
    const second = await this.#call(slotIndex, item, job, cancelled, true, answers);
    if (second !== TIMED_OUT) return second;
    // A watched case reports where it is from its start: nothing reported, it never started.
    const step = this.#slots[slotIndex].currentStep ?? (item.kind === 'case' ? PHASE_RECEIVING : null);
    this.#replace(slotIndex);
    return timedOutResult(id, players, job.settings, this.caseTimeoutMs, step);
  }

  /** One timed call into a slot's worker; `watch` asks it to report each step it starts. */
  async #call(slotIndex: number, item: WorkItem, job: PoolJob, cancelled: Promise<typeof CANCELLED>, watch: boolean, answers?: Record<string, ModelAnswer>): Promise<CallOutcome | typeof CANCELLED | typeof TIMED_OUT> {
    const slot = this.#slots[slotIndex];
    slot.busy = true;
    slot.currentStep = null;
    const call: Promise<CallOutcome> =
      item.kind === 'case' ? (slot.api.analyzeCase(item.caseDef, job.settings, watch, answers) as Promise<CallOutcome>) : slot.api.analyzeGame(item.game, job.settings);
    const outcome = await Promise.race([raceTimeout(call, this.caseTimeoutMs), cancelled]);
    slot.busy = false;
    return outcome;
  }

  /** True when the slot's worker has the job's definition compiled, else why it could not be. */
  async #ensureLoaded(slotIndex: number, source: string | undefined, fileName: string, cancelled: Promise<typeof CANCELLED>): Promise<true | string | typeof CANCELLED> {
    if (source === undefined) return 'No pipeline definition is open: drop its .js file next to the trace.';
    const slot = this.#slots[slotIndex];
    if (slot.source === source) return true;
    slot.busy = true;
    // A definition this pool has not described is described here (its cases checked).
    const described = this.#described?.source === source;
    const text = this.#analysisSource(source);
    const limitMs = this.#loadLimitMs(text);
    const outcome = await Promise.race([raceTimeout(this.#load(slot, text, fileName, !described), limitMs), cancelled]);
    slot.busy = false;
    if (outcome === CANCELLED) return CANCELLED;
    if (outcome === TIMED_OUT) {
      this.#replace(slotIndex);
      return definitionTimedOutMessage(fileName, this.caseTimeoutMs, preparationAllowanceMs(text));
    }
    if (!outcome.ok) return outcome.problem.message;
    if (!described) this.#described = { source, analysisSource: outcome.analysisSource ?? source };
    slot.source = source;
    return true;
  }

  /** A definition's compile gets a case's time limit plus the allowance for its size (engine/pool-contract.ts). */
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

  #startSlot(): Slot {
    const worker = this.#createWorker();
    const slot: Slot = { worker, api: Comlink.wrap<AnalysisWorkerApi>(worker), source: null, busy: false, currentStep: null, onCaseDone: null };
    worker.addEventListener('message', (event) => {
      if (isWatchdogMessage(event.data)) slot.currentStep = event.data.agentblameWatchdog;
      else if (isCaseDoneMessage(event.data)) slot.onCaseDone?.(event.data.agentblameCaseDone, withCoalitions(event.data));
    });
    return slot;
  }
}
