/**
 * The launch of the open study's analyses: the analysis pool (started once, on first use), one
 * run at a time through `runStudy` with a job of the page's model host (cases of model steps
 * that no stored response answers wait for an endpoint), its cancellation, and the analyses
 * made beside the open study (the regression game, a definition's cases analysed aside). Part
 * of the AnalysisRunner, which decides what is run and what its results do to the page.
 */
import { keptResult } from '../../engine/index.ts';
import type { AnalysisSettings, BatchBound, CaseDef, CaseResult } from '../../engine/types.ts';
import type { BatchStopRule } from '../../engine/setting-choices.ts';
import { PageAnalysisPool } from '../../pool/page/analysis-pool.ts';
import type { DefinitionSummary, LoadOutcome, RegressionGameOutcome, VersionFile } from '../../pool/page/protocol.ts';
import { runStudy, type StudyOutcome, type StudyToRun } from '../../pool/run-study.ts';
import { createAnalysisWorker } from '../analysis/create-analysis-worker.ts';
import { pageStudyPool } from '../analysis/page-study-pool.ts';
import type { EndpointWait } from '../model/endpoint-wait.svelte.ts';
import type { ModelActivity, PageModelHost, PageModelJob, RequestBound } from '../model/page-model-host.svelte.ts';
import type { ModelCacheEntry } from '../../session/types.ts';
import { nextPaint } from './next-paint.ts';

/** What the launch asks of its pool (tests give it a fake one). */
export type RunnerPool = Pick<PageAnalysisPool, 'load' | 'run' | 'caseTimeoutMs'> & Partial<Pick<PageAnalysisPool, 'regressionGame' | 'warmUp'>>;

/** One analysis of the open study: what `runStudy` is given, and where each result goes. */
export interface Launch {
  study: StudyToRun;
  /** The session's own model responses: they answer only what this browser's store lacks. */
  carried: readonly ModelCacheEntry[];
  settings: AnalysisSettings;
  batchBound: BatchBound;
  batchStop: boolean;
  batchStopRule: BatchStopRule;
  summary?: DefinitionSummary;
  /** The most model requests the run can send, when that is known (a replay's): its progress counts them. */
  requestBound: RequestBound | null;
  /** Results already known for these settings, by item (the run fills the rest in). */
  known: (CaseResult | undefined)[];
  /** The study's items (cases and games): each result keeps its outputs within its share of the tab's memory. */
  itemCount: number;
  caseTimeoutS: number;
  /** Each result, kept within the tab's share of the study's items; never one an endpoint will answer again. */
  onResult: (index: number, result: CaseResult) => void;
}

export class AnalysisLaunch {
  /** Workers in the analysis pool. */
  readonly workerCount: number;
  /** The model host of the running (or last) analysis. */
  #job = $state.raw<PageModelJob | null>(null);
  #abort: AbortController | null = null;
  #runCounter = 0;
  #pool: RunnerPool | null = null;
  readonly #createPool: (workers: number) => RunnerPool;
  readonly #model: PageModelHost;
  readonly #endpointWait: EndpointWait;

  constructor(workerCount: number, deps: { model: PageModelHost; endpointWait: EndpointWait; createPool?: (workers: number) => RunnerPool }) {
    this.workerCount = workerCount;
    this.#model = deps.model;
    this.#endpointWait = deps.endpointWait;
    this.#createPool = deps.createPool ?? ((workers) => new PageAnalysisPool(workers, createAnalysisWorker));
  }

  /** The model job of the running (or last) analysis; null before one. */
  get job(): PageModelJob | null {
    return this.#job;
  }

  /** Model requests of the running (or last) analysis; null when it made none. */
  get modelActivity(): ModelActivity | null {
    return this.#job?.activity ?? null;
  }

  /** Whether an analysis runs. */
  get running(): boolean {
    return this.#abort !== null;
  }

  /** Sends the model requests the analysis paused before (more than the Model panel's threshold). */
  sendHeldRequests(): void {
    this.#job?.release();
  }

  /** The pool, started on first use (its workers' bundle and the sandbox's lockdown take a while). */
  pool(): RunnerPool {
    this.#pool ??= this.#createPool(this.workerCount);
    return this.#pool;
  }

  /**
   * Starts the pool and, once the page is idle, has its workers warm their engine up, so the first
   * analysis does not pay for compiling the engine's code (bench/README.md, "Speed round 5").
   */
  startWarm(whenIdle: (run: () => void) => void = onIdle): void {
    const pool = this.pool();
    whenIdle(() => pool.warmUp?.());
  }

  /** Compiles a definition in the pool. */
  compile(source: string, fileName: string): Promise<LoadOutcome> {
    return this.pool().load(source, fileName);
  }

  /**
   * Runs one analysis: its outcome once it ended, or null when it was stopped or another started
   * meanwhile (its late results are dropped, never passed on). The caller cancels a running one first.
   */
  async run(launch: Launch): Promise<StudyOutcome | null> {
    const abort = new AbortController();
    this.#abort = abort;
    const run = ++this.#runCounter;
    const pool = this.pool();
    pool.caseTimeoutMs = launch.caseTimeoutS * 1000;
    await Promise.all([nextPaint(), this.#endpointWait.check(launch.summary?.usesModel === true)]);
    this.#job?.finish();
    const job = (this.#job = this.#model.open({ carried: launch.carried }));
    job.expect(launch.requestBound);
    const outcome = await runStudy({
      pool: pageStudyPool(pool, this.workerCount),
      study: launch.study,
      settings: launch.settings,
      batchBound: launch.batchBound,
      batchStop: launch.batchStop,
      batchStopRule: launch.batchStopRule,
      ...(launch.summary && { summary: launch.summary }),
      model: this.#endpointWait.resolver(job),
      // A replay whose turns form a chain takes a round per request: as many as it can send, plus one.
      ...(launch.requestBound && { maxModelRounds: launch.requestBound.most + 1 }),
      known: launch.known,
      signal: abort.signal,
      onResult: (index, received) => {
        if (run !== this.#runCounter || this.#endpointWait.holds(received)) return;
        // The tab keeps each case's outputs within its share, however many items the study has.
        launch.onResult(index, keptResult(received, launch.itemCount));
      },
    });
    if (run !== this.#runCounter) return null;
    this.#abort = null;
    job.finish();
    return outcome;
  }

  /** Stops the running analysis and its model requests; answers whether one was running. */
  cancel(): boolean {
    if (!this.#abort) return false;
    this.#abort.abort();
    this.#job?.cancel();
    this.#abort = null;
    this.#runCounter++;
    return true;
  }

  /** The regression game of `after` against `before`, built in the pool's sandbox (docs/ci.md). */
  async regressionGame(after: VersionFile, before: VersionFile, caseTimeoutS: number): Promise<RegressionGameOutcome> {
    const pool = this.pool();
    if (!pool.regressionGame) return { ok: false, message: 'this analysis pool cannot build a regression game' };
    pool.caseTimeoutMs = caseTimeoutS * 1000;
    return pool.regressionGame(after, before);
  }

  /**
   * Analyses a definition's cases beside the open study, in the same pool and under its settings,
   * without opening it (the regression game's reverse, docs/ci.md): the results, or why the
   * definition could not be used. Model requests go through a job of the page's model host.
   */
  async analyzeAside(aside: { source: string; fileName: string; cases: readonly CaseDef[] }, under: Pick<Launch, 'carried' | 'settings' | 'batchBound' | 'caseTimeoutS'>): Promise<CaseResult[] | { problem: string }> {
    const pool = this.pool();
    pool.caseTimeoutMs = under.caseTimeoutS * 1000;
    const job = this.#model.open({ carried: under.carried });
    try {
      const outcome = await runStudy({ pool: pageStudyPool(pool, this.workerCount), study: aside, settings: under.settings, batchBound: under.batchBound, model: job });
      if (outcome.status === 'bad-definition') return { problem: outcome.problem.message };
      if (outcome.status === 'no-cases') return [];
      return outcome.results.filter((r): r is CaseResult => r !== undefined);
    } finally {
      job.finish();
    }
  }
}

/** Runs `run` when the page is next idle (within two seconds), or after a short pause where idle callbacks are missing (Safari). */
function onIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => run(), { timeout: 2_000 });
  else setTimeout(run, 500);
}
