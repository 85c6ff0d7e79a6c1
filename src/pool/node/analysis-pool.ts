import { availableParallelism } from 'node:os';
import type { ModelAnswer, PendingRequest } from '../../engine/model-call.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import type { DefinitionSummary } from '../../engine/definition-summary.ts';
import type { TableGame } from '../../engine/table-game.ts';
import { PHASE_IDLE, type ModelWaitAnswer, type WorkerReply, type WorkerRequest, type WorkerWhere } from './protocol.ts';
import {
  batchSizeFor,
  caseErrorResult,
  definitionTimedOutMessage,
  MAX_MODEL_ROUNDS,
  nextModelAnswers,
  PHASE_RECEIVING,
  preparationAllowanceMs,
  timedOutResult,
  withModelUsage,
  type ModelResolver,
} from '../contract.ts';
import { WorkerProcess } from './worker-process.ts';
import { joinCoalitions } from '../../engine/packed-coalitions.ts';
import { analysisWorkerScript } from './worker-script.ts';

export interface AnalysisPoolOptions {
  /** Worker threads (default: available cores, at most 4). */
  size?: number;
  /** Wall-clock limit for one case (or one describe) before its worker is terminated (default 10 s). */
  timeoutMs?: number;
  /** Name of the definition file in messages (default pipeline.js). */
  fileName?: string;
  /** Heap limit of each worker in MB (default 1024): a definition that hoards memory kills only its worker. */
  memoryLimitMb?: number;
  /** Answers model steps' requests (the response cache and the endpoint); without it a model call is a per-case error. */
  model?: ModelResolver;
  /**
   * Rounds of model requests a case may take (default MAX_MODEL_ROUNDS). A replay whose turns form
   * a chain takes a round per request: its caller passes the most requests it can send, plus one.
   */
  maxModelRounds?: number;
  /**
   * Whether a case whose round asked for exactly one request (a chain) runs its next round waiting
   * for each response it lacks, instead of restarting once per request (default true; docs/replay.md,
   * "Time"). Off, every round restarts (the same results: tests compare the two).
   */
  waitOnChains?: boolean;
}

/** What the pool did for cases with model steps (counts, for tests and the bench). */
export interface ModelRoundCounts {
  /** Rounds of cases sent to workers after their first (each replays its case from the start). */
  restarts: number;
  /** Responses given to a waiting round (each a round a restarting case would have taken). */
  waits: number;
}

export { MAX_MODEL_ROUNDS, preparationAllowanceMs, type ModelResolver };

/** How a model is set up for the command, for the error of a model step without one. */
const NO_MODEL = 'no model is configured: pass --model-url URL --model ID, or --cache FILE holding its responses';

/** A bad pipeline definition, as reported by a worker; the message names file and step. */
export class PipelineDefinitionError extends Error {
  override name = 'PipelineDefinitionError';
}

/** `allowanceMs`: the preparation allowance the stopped case had on top of the pool's limit. */
type Outcome = WorkerReply | { type: 'timeout'; phase: number; allowanceMs: number } | { type: 'crash'; message: string };

/** One thing to do: describe a definition, analyse one case or one table game. Cases of one `run` call (games of one `runGames`) are sent in batches. */
type Unit =
  | { kind: 'describe'; source: string; settle(outcome: Outcome): void }
  | {
      kind: 'case';
      source: string;
      settings: AnalysisSettings;
      caseDef: CaseDef;
      /** Model responses known to this case so far (model steps), or null before its first request. */
      answers: Record<string, ModelAnswer> | null;
      /** The round waits for each response it lacks ('model-wait') instead of returning its requests. */
      waiting: boolean;
      /** Fetch one response a waiting round lacks (counted as a round, as a restart would be). */
      wait(request: PendingRequest): Promise<ModelWaitAnswer>;
      batchSize: number;
      settle(outcome: Outcome): void;
    }
  | { kind: 'game'; settings: AnalysisSettings; game: TableGame; batchSize: number; settle(outcome: Outcome): void };

/** What a worker was sent: one describe, or a batch of cases of one run (same source and settings). */
interface Job {
  id: number;
  units: Unit[];
  /** done[k]: unit k has been settled. */
  done: boolean[];
  remaining: number;
  /** The preparation allowance on the watchdog's current limit (until the job's first answer). */
  allowanceMs: number;
}


interface Slot {
  worker: WorkerProcess;
  /** The definition this worker was last sent; a run of the same one goes without it. */
  source: string | null;
  ready: boolean;
  /** The job the worker is on (its watchdog runs). */
  job: Job | null;
  /**
   * A batch of the same definition sent behind `job`, so the worker goes on to it without waiting
   * a round trip for work; it becomes `job` when the last answer of `job` arrives.
   */
  next: Job | null;
  timer: ReturnType<typeof setTimeout> | null;
  /** The cases of the last run request sent to this worker, which it keeps (HeldCase). */
  lastCases: readonly CaseDef[];
}

/**
 * Analyses cases of sandboxed pipeline definitions on a pool of worker threads (Node only).
 *
 * Cases go to the workers in small batches (one message per batch, so a worker never idles for
 * a round trip between cases), and a busy worker is sent its next batch of the same definition
 * before it finishes the one it is on (so it never idles for a round trip between batches either);
 * a worker analyses its batches' cases one at a time and answers each as it finishes. A watchdog terminates a worker whose current case runs past `timeoutMs` (a
 * spinning worker cannot answer messages; the clock restarts with every answer) and replaces it;
 * that case gets an error result naming the step it was stuck in, read from a SharedArrayBuffer
 * the worker writes before every case and step, and the batch's unfinished cases are queued again.
 * A worker that dies fails only its current case the same way. Results come back in case order
 * and do not depend on the pool size or the batches (each case is analysed by a fresh definition
 * instance).
 */
export class NodeAnalysisPool {
  readonly size: number;
  readonly timeoutMs: number;
  private readonly fileName: string;
  private readonly memoryLimitMb: number;
  private readonly model: ModelResolver | undefined;
  private readonly maxModelRounds: number | undefined;
  private readonly waitOnChains: boolean;
  /** Restarted rounds and waited responses so far (ModelRoundCounts). */
  readonly modelRounds: ModelRoundCounts = { restarts: 0, waits: 0 };
  private readonly slots: Slot[] = [];
  private readonly queue: Unit[] = [];
  /** Per definition: its summary, and the text runs send workers (without an inline case list). */
  private readonly descriptions = new Map<string, Promise<{ summary: DefinitionSummary; analysisSource: string }>>();
  private nextJobId = 1;
  private closed = false;
  /** Workers that died before becoming ready, in a row; a broken worker script stops the pool. */
  private startupFailures = 0;
  private broken: string | null = null;

  constructor(options: AnalysisPoolOptions = {}) {
    const size = options.size ?? Math.min(4, Math.max(1, availableParallelism()));
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`NodeAnalysisPool size must be a positive integer, got ${size}`);
    const timeoutMs = options.timeoutMs ?? 10_000;
    if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new RangeError(`NodeAnalysisPool timeoutMs must be a positive number, got ${timeoutMs}`);
    this.size = size;
    this.timeoutMs = timeoutMs;
    this.fileName = options.fileName ?? 'pipeline.js';
    this.memoryLimitMb = options.memoryLimitMb ?? 1024;
    this.model = options.model;
    this.maxModelRounds = options.maxModelRounds;
    this.waitOnChains = options.waitOnChains ?? true;
    for (let i = 0; i < size; i++) this.slots.push(this.startWorker());
  }

  /** The definition's structure and cases; rejects with PipelineDefinitionError for a bad definition. */
  async describe(source: string): Promise<DefinitionSummary> {
    return (await this.described(source)).summary;
  }

  private described(source: string): Promise<{ summary: DefinitionSummary; analysisSource: string }> {
    if (this.closed) return Promise.reject(new Error(this.broken ?? 'the pool was closed'));
    let description = this.descriptions.get(source);
    if (!description) {
      description = new Promise((resolve, reject) => {
        this.enqueue([{ kind: 'describe', source, settle: (reply) => {
          if (reply.type === 'described') resolve({ summary: reply.description, analysisSource: reply.analysisSource ?? source });
          else if (reply.type === 'failed') reject(reply.definitionError ? new PipelineDefinitionError(reply.message) : new Error(reply.message));
          else if (reply.type === 'timeout') reject(new PipelineDefinitionError(definitionTimedOutMessage(this.fileName, this.timeoutMs, preparationAllowanceMs(source))));
          else if (reply.type === 'crash') reject(new Error(`${this.fileName}: the worker describing the definition stopped: ${reply.message}`));
        } }]);
      });
      // A failed describe is not cached: the next call tries again (and fails the same way).
      description.catch(() => this.descriptions.delete(source));
      this.descriptions.set(source, description);
    }
    return description;
  }

  /**
   * Analyse every case; `onResult` is called as each finishes (in completion order). Per-case
   * problems (a step that throws, a timeout) are error results; a bad definition rejects.
   * `keep` turns each result into what the caller keeps (e.g. without its outputs) as soon as it
   * arrives, so a long run never holds every case's full result at once.
   */
  async run(source: string, cases: readonly CaseDef[], settings: AnalysisSettings, onResult?: (index: number, result: CaseResult) => void, keep?: (result: CaseResult) => CaseResult): Promise<CaseResult[]> {
    const { summary: description, analysisSource } = await this.described(source);
    const players = description.steps.map((step) => step.name);
    const batchSize = batchSizeFor(cases.length, this.size);
    const units: Unit[] = [];
    const results = cases.map(
      (caseDef, index) =>
        new Promise<CaseResult>((resolve, reject) => {
          let rounds = 0;
          // Every response known to the case: a case sent again (another case's worker died) keeps them.
          let known: Record<string, ModelAnswer> | null = null;
          const finish = (result: CaseResult) => {
            const withUsage = withModelUsage(result, rounds, this.model);
            const kept = keep ? keep(withUsage) : withUsage;
            onResult?.(index, kept);
            resolve(kept);
          };
          const fail = (message: string) => finish(caseErrorResult(caseDef.id, players, settings, message));
          // `withKnown`: the answers returned include every one known so far (a waiting round's do not: it takes one at a time, and copying them all each time would grow with the square of the chain).
          const fetch = (requests: readonly PendingRequest[], withKnown = true) => {
            rounds++;
            return nextModelAnswers({ caseId: caseDef.id, requests, known: withKnown ? known : null, round: rounds, maxRounds: this.maxModelRounds, model: this.model, noModel: NO_MODEL });
          };
          const unit = (answers: Record<string, ModelAnswer> | null, waiting: boolean): Unit => {
           const self: Unit = {
            kind: 'case',
            // Workers analyse given cases: they never parse or check the definition's own list.
            source: analysisSource,
            settings,
            caseDef,
            answers,
            waiting,
            batchSize,
            wait: async (request) => {
              const next = await fetch([request], false);
              if (!next.ok) return { type: 'model-answer', error: next.error };
              const answer = next.answers[request.key];
              known ??= {};
              known[request.key] = answer;
              // Sent again (another case's worker died), the case needs not wait for these again.
              if (self.kind === 'case') self.answers = known;
              this.modelRounds.waits++;
              return { type: 'model-answer', answer };
            },
            settle: (reply) => {
              if (reply.type === 'result') finish(joinCoalitions(reply.result, reply.coalitions));
              else if (reply.type === 'pending') {
                void fetch(reply.requests).then((next) => {
                  if (!next.ok) return fail(next.error);
                  known = next.answers;
                  this.modelRounds.restarts++;
                  // A round that asked for one request is a chain so far: the next waits for each response instead of restarting per request.
                  this.enqueue([unit(next.answers, this.waitOnChains && reply.requests.length === 1)]);
                });
              } else if (reply.type === 'timeout') finish(timedOutResult(caseDef.id, players, settings, this.timeoutMs, reply.phase, reply.allowanceMs));
              else if (reply.type === 'crash') fail(`the analysis worker stopped: ${reply.message}`);
              else if (reply.type === 'failed' && !reply.definitionError) fail(reply.message);
              else reject(reply.type === 'failed' ? new PipelineDefinitionError(reply.message) : new Error(`unexpected reply ${reply.type}`));
            },
           };
           return self;
          };
          units.push(unit(null, false));
        }),
    );
    this.enqueue(units);
    return Promise.all(results);
  }

  /**
   * Analyse table games in the workers (as the page does), in batches like a run's cases, each
   * timed on its own; results in game order, `onResult` as each finishes. A game that fails is an
   * error result naming it.
   */
  async runGames(games: readonly TableGame[], settings: AnalysisSettings, onResult?: (index: number, result: CaseResult) => void): Promise<CaseResult[]> {
    const batchSize = batchSizeFor(games.length, this.size);
    const units: Unit[] = [];
    const results = games.map(
      (game, index) =>
        new Promise<CaseResult>((resolve) => {
          const finish = (result: CaseResult) => {
            onResult?.(index, result);
            resolve(result);
          };
          const fail = (message: string) => finish(caseErrorResult(game.id, game.players, settings, message));
          units.push({
            kind: 'game',
            settings,
            game,
            batchSize,
            settle: (reply) => {
              if (reply.type === 'result') finish(joinCoalitions(reply.result, reply.coalitions));
              else if (reply.type === 'timeout') finish(timedOutResult(game.id, game.players, settings, this.timeoutMs, reply.phase));
              else if (reply.type === 'crash') fail(`the analysis worker stopped: ${reply.message}`);
              else if (reply.type === 'failed') fail(reply.message);
              else fail(`internal: unexpected reply ${reply.type}`);
            },
          });
        }),
    );
    this.enqueue(units);
    return Promise.all(results);
  }

  /** Stop every worker. Cases still waiting get an error result; describes still waiting reject. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const pending = [...this.queue, ...this.slots.flatMap((slot) => [slot.job, slot.next].flatMap((job) => (job ? unfinished(job) : [])))];
    this.queue.length = 0;
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.job = null;
      slot.next = null;
    }
    for (const unit of pending) unit.settle({ type: 'crash', message: 'the pool was closed' });
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private enqueue(units: Unit[]): void {
    if (this.closed || this.broken !== null) {
      for (const unit of units) unit.settle({ type: 'crash', message: this.broken ?? 'the pool was closed' });
      return;
    }
    for (const unit of units) {
      let settled = false;
      const settle = unit.settle;
      // Every unit settles exactly once, whichever of reply, timeout, crash or close comes first.
      unit.settle = (outcome) => {
        if (settled) return;
        settled = true;
        settle(outcome);
      };
      this.queue.push(unit);
    }
    this.dispatch();
  }

  /** The next job from the queue: a describe, or up to `batchSize` consecutive cases of one run. */
  private nextJob(): Job {
    const first = this.queue.shift()!;
    const units: Unit[] = [first];
    if (first.kind === 'case') {
      while (units.length < first.batchSize && this.queue.length > 0) {
        const next = this.queue[0];
        // A case sent alone (batchSize 1, after an unexplained death) is never joined to a batch.
        if (next.kind !== 'case' || next.batchSize === 1 || next.source !== first.source || next.settings !== first.settings) break;
        units.push(this.queue.shift()!);
      }
    } else if (first.kind === 'game') {
      while (units.length < first.batchSize && this.queue.length > 0) {
        const next = this.queue[0];
        if (next.kind !== 'game' || next.batchSize === 1 || next.settings !== first.settings) break;
        units.push(this.queue.shift()!);
      }
    }
    return { id: this.nextJobId++, units, done: units.map(() => false), remaining: units.length, allowanceMs: 0 };
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (!slot.ready || slot.job) continue;
      this.sendJob(slot);
    }
    // Then a batch behind each busy worker's own, once every idle worker has one.
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (slot.ready && slot.job && !slot.next && this.canFollow(slot)) this.sendNext(slot);
    }
    this.updateRefs();
  }

  /**
   * Whether the queue's next batch may wait inside this worker behind its job: cases of the
   * definition it already holds, in batches (a case sent alone after an unexplained death, or one
   * with a new definition, whose compile gets its own allowance, waits for a free worker).
   */
  private canFollow(slot: Slot): boolean {
    const head = this.queue[0];
    const current = slot.job!.units[0];
    return current.kind === 'case' && head.kind === 'case' && head.batchSize > 1 && head.source === slot.source;
  }

  /** Send the next batch behind the worker's job; its watchdog starts when that job is done. */
  private sendNext(slot: Slot): void {
    const job = this.nextJob();
    slot.next = job;
    slot.worker.postMessage(this.runRequestFor(slot, job, false));
  }

  /** Send the queue's next job to an idle worker and start its watchdog. */
  private sendJob(slot: Slot): void {
    const job = this.nextJob();
    slot.job = job;
    const first = job.units[0];
    if (first.kind === 'game') {
      const games = job.units.map((unit) => (unit as Extract<Unit, { kind: 'game' }>).game);
      this.armTimer(slot, job, 0);
      slot.worker.postMessage({ type: 'games', job: job.id, games, settings: first.settings } satisfies WorkerRequest);
      return;
    }
    const sameSource = slot.source === first.source;
    slot.source = first.source;
    const message: WorkerRequest =
      first.kind === 'describe' ? { type: 'describe', job: job.id, source: first.source, fileName: this.fileName } : this.runRequestFor(slot, job, !sameSource);
    // A definition new to this worker is parsed and compiled before its first case: that takes
    // time in proportion to its size (a definition listing 300 000 cases is 12 MB), not the case's.
    this.armTimer(slot, job, sameSource && first.kind === 'case' ? 0 : preparationAllowanceMs(first.source));
    slot.worker.postMessage(message);
  }

  /** The run request of `job` for this worker: cases it holds from its last one go by their place (HeldCase). */
  private runRequestFor(slot: Slot, job: Job, withSource: boolean): WorkerRequest {
    const request = runRequest(job, this.fileName, withSource, slot.lastCases);
    slot.lastCases = (job.units as Extract<Unit, { kind: 'case' }>[]).map((unit) => unit.caseDef);
    return request;
  }

  /** (Re)start the watchdog of the case the worker is on: it gets `timeoutMs` from now. */
  private armTimer(slot: Slot, job: Job, extraMs = 0): void {
    if (slot.timer) clearTimeout(slot.timer);
    job.allowanceMs = extraMs;
    slot.timer = setTimeout(() => this.onTimeout(slot, job), this.timeoutMs + extraMs);
  }

  /** Workers keep the process alive only while there is work, so an idle pool never blocks exit. */
  private updateRefs(): void {
    const busy = this.queue.length > 0 || this.slots.some((slot) => slot.job !== null);
    for (const slot of this.slots) {
      if (busy) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  private startWorker(): Slot {
    const slot = { ready: false, source: null, job: null, next: null, timer: null, lastCases: [] } as Omit<Slot, 'worker'> as Slot;
    slot.worker = new WorkerProcess(analysisWorkerScript(), this.memoryLimitMb, {
      message: (reply) => this.onReply(slot, reply),
      death: (message, where) => this.onWorkerDeath(slot, message, where),
    });
    slot.worker.unref();
    return slot;
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    if (reply.type === 'ready') {
      slot.ready = true;
      this.startupFailures = 0;
      this.dispatch();
      return;
    }
    // The worker answers in order: the batch behind its job answers only after that job's last case.
    const job = slot.job?.id === reply.job ? slot.job : slot.next?.id === reply.job ? slot.next : null;
    if (!job) return;
    if (reply.type === 'model-wait') {
      this.answerWait(slot, job, reply.index, reply.request);
      return;
    }
    // The worker keeps the text cases of this definition are run with (WorkerReply 'described').
    if (reply.type === 'described' && reply.analysisSource !== undefined) slot.source = reply.analysisSource;
    const index = reply.type === 'described' ? 0 : reply.index;
    if (!(index >= 0 && index < job.units.length) || job.done[index]) return;
    job.done[index] = true;
    job.remaining--;
    if (job === slot.job) {
      if (job.remaining === 0) this.advance(slot);
      else this.armTimer(slot, job);
    }
    job.units[index].settle(reply);
    if (job.remaining === 0) this.dispatch();
  }

  /**
   * Case `index` of `job` waits, its thread blocked, for one model response: its clock stops until
   * the answer is sent (time spent waiting for the model is not the case's), then starts afresh, as
   * a restarted round's would. A worker replaced meanwhile (dead, timed out, the pool closed) gets nothing.
   */
  private answerWait(slot: Slot, job: Job, index: number, request: PendingRequest): void {
    const unit = job.units[index];
    if (unit === undefined || unit.kind !== 'case' || job.done[index]) return;
    if (slot.job === job && slot.timer) {
      clearTimeout(slot.timer);
      slot.timer = null;
    }
    const worker = slot.worker;
    void unit.wait(request).then((answer) => {
      if (this.closed || slot.worker !== worker || !this.slots.includes(slot) || job.done[index]) return;
      if (slot.job === job) this.armTimer(slot, job);
      worker.answerWait(answer);
    });
  }

  private onTimeout(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    const { next } = this.detach(slot);
    // A fresh worker takes the slot at once; the stuck one is asked where it is (its process
    // reads the thread's progress even while the thread spins), then killed. Its late answers
    // are dropped (the slot is no longer in the pool), and failCurrent queues those units again.
    const stuckWorker = slot.worker;
    this.replaceWorker(slot, false);
    void stuckWorker.progress().then((progress) => {
      void stuckWorker.terminate();
      if (next && progress !== null && progress.job === next.id && progress.phase !== PHASE_IDLE) {
        // The thread had finished the job (its last answers are lost with it) and is stuck in the
        // batch behind: that batch's case is the one timed out, and the job's cases go again first.
        this.failCurrent(next, progress.case, { type: 'timeout', phase: progress.phase, allowanceMs: 0 });
        this.requeue(unfinished(job));
        this.dispatch();
        return;
      }
      // The batch behind never started.
      if (next) this.requeue(unfinished(next));
      // Not started: idle with the job sent, or its process too busy relaying the batch to answer
      // (huge inputs: 3 million small objects took longer than 10 s to copy across).
      const started = progress !== null && progress.phase !== PHASE_IDLE && progress.job === job.id;
      const receiving = !started && (progress !== null || job.remaining === job.units.length);
      if (receiving && job.remaining > 1) {
        // Which case's inputs are huge is not known: each goes again on its own, so only that one times out.
        for (const unit of unfinished(job)) if (unit.kind !== 'describe') unit.batchSize = 1;
        this.failCurrent(job, -1, { type: 'timeout', phase: PHASE_RECEIVING, allowanceMs: job.allowanceMs });
      } else {
        const phase = started ? progress.phase : receiving ? PHASE_RECEIVING : PHASE_UNKNOWN;
        this.failCurrent(job, started ? progress.case : firstUnfinished(job), { type: 'timeout', phase, allowanceMs: job.allowanceMs });
      }
      this.dispatch();
    });
  }

  private onWorkerDeath(slot: Slot, message: string, where?: WorkerWhere): void {
    if (this.closed || !this.slots.includes(slot)) return;
    const { job, next } = this.detach(slot);
    if (!slot.ready && ++this.startupFailures >= 3) {
      // The worker script itself fails: respawning would loop forever.
      this.broken = `analysis workers fail to start: ${message}`;
      const waiting = [...this.queue.splice(0), ...[job, next].flatMap((j) => (j ? unfinished(j) : []))];
      for (const pending of waiting) pending.settle({ type: 'crash', message: this.broken });
      void this.close();
      return;
    }
    this.replaceWorker(slot);
    if (next && where !== undefined && where.job === next.id && where.phase !== PHASE_IDLE) {
      // It died in the batch behind its job (the job's last answers were lost with it): that
      // batch's case is blamed as usual, and the job's unanswered cases go again first.
      this.failDeath(next, deathCase(next, where), message);
      if (job) this.requeue(unfinished(job));
      this.dispatch();
      return;
    }
    // The batch behind never started.
    if (next) this.requeue(unfinished(next));
    if (job) this.failDeath(job, deathCase(job, where), message);
    this.dispatch();
  }

  /** A dead worker's job: its case `current` crashed (or, not known which, each unanswered case goes again alone). */
  private failDeath(job: Job, current: number, message: string): void {
    if (current === UNKNOWN_CASE) {
      // The whole process died with several cases unanswered (a worker holds quick answers back),
      // so which one killed it is not known: each goes again on its own, and the next death names it.
      for (const unit of unfinished(job)) if (unit.kind !== 'describe') unit.batchSize = 1;
      this.failCurrent(job, -1, { type: 'crash', message });
    } else this.failCurrent(job, current, { type: 'crash', message });
  }

  /**
   * The worker of `job` was stopped while on unit `current`: that unit gets `outcome`, and the
   * batch's other unfinished units go back to the front of the queue, in order (results do not
   * depend on which worker analyses a case). If `current` had already answered (its answer
   * arrived just before the stop), nothing is failed and every unfinished unit is queued again.
   */
  private failCurrent(job: Job, current: number, outcome: Outcome): void {
    const stuck = current >= 0 && current < job.units.length && !job.done[current] ? job.units[current] : null;
    const again = unfinished(job).filter((unit) => unit !== stuck);
    stuck?.settle(outcome);
    this.requeue(again);
  }

  /** Units back to the front of the queue, in order (or failed, once the pool is closed or broken). */
  private requeue(units: Unit[]): void {
    if (this.closed || this.broken !== null) {
      for (const unit of units) unit.settle({ type: 'crash', message: this.broken ?? 'the pool was closed' });
      return;
    }
    this.queue.unshift(...units);
  }

  /** The job is done: the batch behind it (if any still has work) becomes the job, with its watchdog from now. */
  private advance(slot: Slot): void {
    const next = slot.next;
    this.detach(slot);
    if (next && next.remaining > 0) {
      slot.job = next;
      this.armTimer(slot, next);
    }
  }

  /** Take the slot's job and the batch behind it off the slot (its worker is being replaced, or the job is done). */
  private detach(slot: Slot): { job: Job | null; next: Job | null } {
    const { job, next } = slot;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.next = null;
    return { job, next };
  }

  /** Terminate a stuck or dead worker (unless the caller still needs it) and put a fresh one in its place. */
  private replaceWorker(slot: Slot, terminate = true): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    if (terminate) void slot.worker.terminate();
    this.slots[index] = this.startWorker();
  }
}

/** Marks a timeout whose worker did not say where it was. */
const PHASE_UNKNOWN = -100;

/** Marks a death whose case is not known (see onWorkerDeath). */
const UNKNOWN_CASE = -2;

/**
 * The unit of `job` a dead worker was on: where its thread said it was; else, with one unit
 * unanswered, that one; else not known (answers may have been held back: WorkerReplyGroup).
 */
function deathCase(job: Job, where: WorkerWhere | undefined): number {
  if (job.units[0].kind === 'describe') return firstUnfinished(job);
  if (where !== undefined && where.phase !== PHASE_IDLE && where.job === job.id && where.case >= 0 && where.case < job.units.length && !job.done[where.case]) return where.case;
  return job.remaining === 1 ? firstUnfinished(job) : UNKNOWN_CASE;
}

/** Index of the first unit of a job that has not been settled, or -1. */
function firstUnfinished(job: Job): number {
  return job.done.indexOf(false);
}

/** The units of a job that have not been settled yet, in order. */
function unfinished(job: Job): Unit[] {
  return job.units.filter((_, k) => !job.done[k]);
}

/**
 * The message of a job of cases (all of one run: one source and settings); `withSource` when the
 * worker does not hold the definition yet; `held`: the cases of the worker's last run request,
 * sent again by their place only.
 */
function runRequest(job: Job, fileName: string, withSource: boolean, held: readonly CaseDef[]): WorkerRequest {
  const units = job.units as Extract<Unit, { kind: 'case' }>[];
  const first = units[0];
  return {
    type: 'run',
    job: job.id,
    ...(withSource ? { source: first.source } : {}),
    fileName,
    cases: units.map((unit) => {
      const k = held.indexOf(unit.caseDef);
      return k >= 0 ? { held: k } : unit.caseDef;
    }),
    settings: first.settings,
    ...(units.some((unit) => unit.answers !== null) ? { answers: units.map((unit) => unit.answers) } : {}),
    ...(units.some((unit) => unit.waiting) ? { waiting: units.map((unit) => unit.waiting) } : {}),
  };
}
