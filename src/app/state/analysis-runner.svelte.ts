/**
 * The analysis of the open study: its pipeline definition, the analysis settings, the results per
 * case (cached per settings), and the progress of the running analysis. Opening files is the
 * StudyOpener's job and where the user is, the Navigation's; the autosave is injected. Components
 * read these runes and call the methods; everything that crosses to a worker or to IndexedDB is
 * raw (never a proxy).
 */
import { nextPaint } from './next-paint.ts';
import { DEFAULT_SETTINGS, keptResult } from '../../engine/index.ts';
import type { AnalysisSettings, BatchBound, BatchResult, CaseResult } from '../../engine/types.ts';
import { PageAnalysisPool } from '../../pool/page/analysis-pool.ts';
import { runStudy, studyBatch } from '../../pool/run-study.ts';
import { knownStop } from '../../pool/known-stop.ts';
import type { StudyPool } from '../../pool/study-pool.ts';
import { ModelConnection } from '../model/model-connection.svelte.ts';
import { ResponseStore } from '../model/response-store.ts';
import { ModelHost, type ModelProgress, endpointConfig } from '../../model/index.ts';
import { withCarriedResponses } from '../model/session-responses.ts';
import { EndpointWait } from '../model/endpoint-wait.svelte.ts';
import type { ModelUsage } from '../../engine/model-call.ts';
import { createAnalysisWorker } from '../analysis/create-analysis-worker.ts';
import { poolSize } from '../analysis/pool-size.ts';
import type { DefinitionProblem, DefinitionSummary, LoadOutcome } from '../../pool/page/protocol.ts';
import { definitionFileName, type Study } from '../importing/study.ts';
import { defaultFixes } from './default-fixes.ts';
import type { RunProgress } from './run-progress.ts';
import type { Navigation } from '../navigation/navigation.svelte.ts';
import { settingsKey } from './settings-key.ts';
import type { SessionContrast } from '../../session/types.ts';

/** The model host's progress in the running (or last) analysis, with the tokens so far. */
/** `warnings`: what the host said that failed no case (the endpoint overloaded, cached answers from another model). */
export type ModelActivity = ModelProgress & { usage: ModelUsage; endpoint: string | null; warnings?: readonly string[] };

export type DefinitionState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'ready'; summary: DefinitionSummary }
  | { status: 'error'; problem: DefinitionProblem };

/** What the runner tells when its results or settings change (the session autosave). */
export interface Autosave {
  schedule(): void;
  /** Saves now (a study just opened is stored at once, so a reload finds it). */
  saveNow?(): void;
}

/** What the runner asks of its pool (tests give it a fake one). */
export type RunnerPool = Pick<PageAnalysisPool, 'load' | 'run' | 'caseTimeoutMs'>;

/** Results reach the page's state at most this often, so a fast analysis never floods it. */
const FLUSH_MS = 200;
/** Settings changes wait this long for the next keystroke before re-running. */
const RERUN_DELAY_MS = 350;

export class AnalysisRunner {
  study = $state.raw<Study | null>(null);
  definition = $state.raw<DefinitionState>({ status: 'none' });
  settings = $state.raw<AnalysisSettings>({ ...DEFAULT_SETTINGS });
  /** How the batch CI is computed; changes only the aggregation, never re-runs cases. */
  batchBound = $state<BatchBound>('normal');
  /**
   * Stop analysing once the top step is separated from every other (the command's --batch-stop,
   * decided under `batchBound`): the next analysis stops there; the batch counts the cases up to it.
   */
  batchStop = $state(false);
  /** Where the last analysis stopped early, under which settings (key): the batch counts the first `at` items. */
  #stopped = $state.raw<{ key: string; at: number } | null>(null);
  /** Results by case index for the current settings (undefined = not analysed yet). */
  results = $state.raw<(CaseResult | undefined)[]>([]);
  progress = $state.raw<RunProgress | null>(null);
  /** Model requests of the running (or last) analysis; null when it made none. */
  modelActivity = $state.raw<ModelActivity | null>(null);
  /**
   * An edit of the definition that could not be used: the results and the definition stay those of
   * the previous code (the page says so) until an edit compiles.
   */
  editProblem = $state.raw<DefinitionProblem | null>(null);
  /** The definition as the study was opened (what Revert goes back to, however often it was re-run). */
  openedSource = $state.raw<string | null>(null);
  /**
   * The results shown are those of the previous settings: new settings keep them on screen until
   * their own first results arrive (switching to Monte Carlo no longer empties the view).
   */
  previousShown = $state(false);
  /** Time limit for one case, in seconds (the command's --timeout). */
  caseTimeoutS = $state(10);
  /** Workers in the analysis pool (a `?workers=N` query overrides the default). */
  readonly workerCount: number;

  batch: BatchResult | null = $derived.by(() => this.#aggregate());

  /** Step names, from the definition or the games. */
  steps: string[] = $derived.by(() => {
    if (this.definition.status === 'ready') return this.definition.summary.steps.map((s) => s.name);
    const first = this.study?.games[0];
    return first ? [...first.players] : [];
  });

  #pool: RunnerPool | null = null;
  /** Where model steps' requests go (base URL, key, concurrency); model ids are in the settings. */
  readonly modelConnection = new ModelConnection();
  /** The page's response cache for model steps (IndexedDB, shared by every session). */
  readonly responseStore = new ResponseStore();
  /** Cases of model steps that no stored response answers wait for an endpoint, instead of each failing. */
  readonly endpointWait = new EndpointWait(() => void this.analyze(), this.modelConnection);

  /**
   * The model host of one analysis: responses from the store first, then the endpoint of the Model
   * panel (when its base URL is usable); each distinct request sent once, kept as it arrives.
   */
  #modelHost(): ModelHost {
    const c = this.modelConnection;
    let endpoint;
    try {
      endpoint = c.urlProblem || c.answers === false ? undefined : endpointConfig({ baseUrl: c.baseUrl, apiKey: c.apiKey || undefined, concurrency: c.concurrency, timeoutMs: Math.round(c.timeoutSeconds * 1000) });
    } catch {
      endpoint = undefined;
    }
    this.modelActivity = null;
    this.#warnings = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const host: ModelHost = new ModelHost({
      endpoint,
      // A session file's own responses answer only what this browser's store lacks.
      store: withCarriedResponses(this.responseStore, this.study?.modelResponses ?? []),
      askAbove: c.askAbove > 0 ? c.askAbove : undefined,
      onWarning: (message) => {
        if (host !== this.#host || this.#warnings.includes(message) || this.#warnings.length >= 5) return;
        this.#warnings = [...this.#warnings, message];
        if (this.modelActivity) this.modelActivity = { ...this.modelActivity, warnings: this.#warnings };
      },
      // Progress arrives per request: shown at most every 100 ms, and at once when sending pauses.
      onProgress: (progress) => {
        if (host !== this.#host) return;
        const show = () => {
          timer = undefined;
          if (host === this.#host) this.modelActivity = { ...host.progress(), usage: host.totalUsage(), endpoint: endpoint?.baseUrl ?? null, warnings: this.#warnings };
        };
        if (progress.held) show();
        else timer ??= setTimeout(show, 100);
      },
    });
    this.#host = host;
    return host;
  }
  #host: ModelHost | null = null;
  #warnings: readonly string[] = [];

  /** Send the model requests the analysis paused before (more than the Model panel's threshold). */
  sendHeldRequests(): void {
    this.#host?.release();
    if (this.modelActivity) this.modelActivity = { ...this.modelActivity, held: false };
  }
  #cache = new Map<string, (CaseResult | undefined)[]>();
  #abort: AbortController | null = null;
  #pending: { index: number; result: CaseResult }[] = [];
  /** The settings key the pending results were analysed under (settings may have changed since). */
  #pendingKey = '';
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #rerunTimer: ReturnType<typeof setTimeout> | undefined;
  #runCounter = 0;
  readonly #autosave: Autosave;
  readonly #navigation: Navigation;
  readonly #createPool: (workers: number) => RunnerPool;

  constructor(workerCount: number, deps: { autosave: Autosave; navigation: Navigation; createPool?: (workers: number) => RunnerPool }) {
    this.workerCount = workerCount;
    this.#autosave = deps.autosave;
    this.#navigation = deps.navigation;
    this.#createPool = deps.createPool ?? ((workers) => new PageAnalysisPool(workers, createAnalysisWorker));
  }

  /** Workers in the pool for this page: a `?workers=N` query overrides one per core, less one. */
  static workersForPage(): number {
    const requested = Number(new URLSearchParams(location.search).get('workers'));
    return Number.isInteger(requested) && requested > 0 && requested <= 16 ? requested : poolSize(navigator.hardwareConcurrency);
  }

  /**
   * Starts the analysis workers now (their bundle, the sandbox's lockdown), while the page is still
   * opening or the user is choosing a study, instead of when the first definition is compiled.
   */
  startWorkers(): void {
    this.#getPool();
  }

  /** The settings a new study starts with. */
  defaultSettings(): AnalysisSettings {
    return { ...DEFAULT_SETTINGS };
  }

  get itemCount(): number {
    return this.study ? this.study.cases.length + this.study.games.length : 0;
  }

  get running(): boolean {
    return this.progress?.status === 'running';
  }

  /**
   * Replaces the open study, compiles its definition and analyses it (resolves when the analysis
   * ends). `keepNavigation` keeps the view and case set beforehand (a link being reopened).
   */
  async openStudy(
    study: Study,
    options: { keepSettings?: boolean; results?: CaseResult[]; settings?: AnalysisSettings; autoRun?: boolean; stopped?: boolean; keepNavigation?: boolean; edited?: boolean; loaded?: LoadOutcome; batch?: { bound: BatchBound; stop: boolean } } = {},
  ): Promise<void> {
    this.cancel();
    this.#cache.clear();
    this.endpointWait.reset();
    this.#stopped = null;
    this.study = study;
    this.editProblem = null;
    if (!options.edited) this.openedSource = study.pipeline?.source ?? null;
    if (!options.keepNavigation) this.#navigation.reset();
    if (options.settings) this.settings = options.settings;
    else if (!options.keepSettings) this.settings = { ...DEFAULT_SETTINGS };
    if (options.batch) {
      this.batchBound = options.batch.bound;
      this.batchStop = options.batch.stop;
    }
    this.results = [];
    this.previousShown = false;
    this.progress = null;
    await this.#loadDefinition(options.loaded);
    if (options.results && options.results.length > 0) this.#restore(options.results);
    if (options.results && options.results.length > 0 && this.#restoreStop()) return;
    if (options.autoRun === false) {
      // A reopened session that was interrupted (or stopped): show what finished and offer to resume.
      const done = this.finishedResults().length;
      const status = done >= this.itemCount ? 'done' : options.stopped ? 'cancelled' : 'interrupted';
      this.progress = { status, done, total: this.itemCount, cost: sumCost(this.results), startedAt: performance.now(), doneThisRun: 0, elapsedMs: 0 };
      this.#autosave.schedule();
      return;
    }
    // Stored at once: a reload right after opening finds the study.
    this.#saveNow();
    await this.analyze();
  }

  /**
   * The edited definition replaces the study's own (kept in the session), compiled and analysed
   * again. When the study has a working definition, the edit is compiled first: one that cannot be
   * used leaves the definition and its results as they were (`editProblem` says why).
   */
  async rerunDefinition(source: string): Promise<void> {
    const study = this.study;
    if (!study?.pipeline) return;
    // The contrast was replayed with the definition as it was: it does not describe the edited one.
    const { contrast: _before, ...rest } = study;
    const edited: Study = { ...rest, pipeline: { ...study.pipeline, source } };
    if (this.definition.status === 'ready') {
      this.cancel();
      const outcome = await this.#getPool().load(source, definitionFileName(edited));
      if (this.study !== study) return;
      if (!outcome.ok) {
        this.editProblem = outcome.problem;
        return;
      }
      await this.openStudy(edited, { keepSettings: true, keepNavigation: true, edited: true, loaded: outcome });
      return;
    }
    await this.openStudy(edited, { keepSettings: true, keepNavigation: true, edited: true });
  }

  /** Keeps a single-step contrast with the open study (saved with its session, shown after a reload). */
  keepContrast(contrast: SessionContrast): void {
    if (!this.study) return;
    this.study = { ...this.study, contrast };
    this.#autosave.schedule();
  }

  /** Closes the study and returns to the landing page. */
  close(): void {
    this.cancel();
    this.#cache.clear();
    this.endpointWait.reset();
    this.#stopped = null;
    this.study = null;
    this.definition = { status: 'none' };
    this.editProblem = null;
    this.openedSource = null;
    this.results = [];
    this.previousShown = false;
    this.progress = null;
    this.#navigation.reset();
  }

  /** Changes settings and re-runs (after a short pause) the cases whose results they change. */
  updateSettings(patch: Partial<AnalysisSettings>): void {
    // A field that fires `change` again with the same value (on blur) must not restart a running analysis.
    const current = this.settings as unknown as Record<string, unknown>;
    if (Object.entries(patch).every(([name, value]) => JSON.stringify(current[name]) === JSON.stringify(value))) return;
    this.settings = { ...this.settings, ...patch };
    this.#showCachedResults();
    clearTimeout(this.#rerunTimer);
    this.#rerunTimer = setTimeout(() => void this.analyze(), RERUN_DELAY_MS);
    this.#autosave.schedule();
  }

  /**
   * Turns the early stop on or off. On, it decides the next analysis; off after an analysis that
   * stopped early, the cases after the stop are analysed now.
   */
  setBatchStop(on: boolean): void {
    this.batchStop = on;
    this.#autosave.schedule();
    if (!on && this.#stopped !== null && this.#stopped.key === this.#key()) void this.analyze();
  }

  /** Changes how the batch CI is computed (only the aggregation; saved with the study). */
  setBatchBound(bound: BatchBound): void {
    this.batchBound = bound;
    this.#autosave.schedule();
  }

  /** Chooses the fix a step uses. */
  chooseFix(step: string, fix: string): void {
    this.updateSettings({ fixChoice: { ...(this.settings.fixChoice ?? {}), [step]: fix } });
  }

  /** Analyses every case that has no result for the current settings yet. */
  async analyze(): Promise<void> {
    clearTimeout(this.#rerunTimer);
    const study = this.study;
    if (!study || this.itemCount === 0) return;
    if (study.cases.length > 0 && this.definition.status !== 'ready') return;
    this.cancel();
    const key = this.#key();
    const results = this.#cacheEntry(key);
    const missing = results.filter((r) => r === undefined).length;
    if (!(this.previousShown && results.every((r) => r === undefined))) {
      this.previousShown = false;
      this.results = [...results];
    }
    const startedAt = performance.now();
    const done = results.filter((r) => r !== undefined).length;
    this.progress = { status: missing === 0 ? 'done' : 'running', done, total: this.itemCount, cost: sumCost(results), startedAt, doneThisRun: 0, elapsedMs: 0 };
    if (missing === 0) return;
    if (this.#stopped?.key === key) this.#stopped = null;

    const abort = new AbortController();
    this.#abort = abort;
    const run = ++this.#runCounter;
    const pool = this.#getPool();
    pool.caseTimeoutMs = this.caseTimeoutS * 1000;
    await Promise.all([nextPaint(), this.endpointWait.check(this.definition.status === 'ready' && this.definition.summary.usesModel === true)]);
    const studyPool: StudyPool = { size: this.workerCount, describe: (source, fileName) => pool.load(source, fileName), run: (job, signal) => pool.run(job, signal) };
    const summary = this.definition.status === 'ready' ? this.definition.summary : undefined;
    const outcome = await runStudy({
      pool: studyPool,
      // A study of games only needs no definition (one that does not compile does not stop them).
      study: { ...(study.cases.length > 0 && { source: study.pipeline?.source }), fileName: definitionFileName(study), cases: study.cases, games: study.games },
      settings: this.settings,
      batchBound: this.batchBound,
      batchStop: this.batchStop,
      ...(summary && { summary }),
      model: this.endpointWait.resolver(this.#modelHost()),
      known: results,
      signal: abort.signal,
      onResult: (index, received) => {
        if (run !== this.#runCounter || this.endpointWait.holds(received)) return;
        // The tab keeps each case's outputs within its share, however many cases the study has.
        const result = keptResult(received, this.itemCount);
        results[index] = result;
        this.#pendingKey = key;
        this.#pending.push({ index, result });
        this.#scheduleFlush(key);
      },
    });
    if (run !== this.#runCounter) return;
    this.#flush(key);
    this.#abort = null;
    this.#showModelActivity();
    if (key !== this.#key()) {
      // The settings changed while this run went on: its end says nothing of the results on show
      // ("Done" beside "Waiting for the first results"). Theirs starts now, not after the pause.
      void this.analyze();
      return;
    }
    const stoppedAt = outcome.status === 'done' ? outcome.stoppedAt : undefined;
    if (stoppedAt !== undefined) this.#stopped = { key, at: stoppedAt };
    this.progress = { ...this.progress!, status: outcome.status === 'cancelled' ? 'cancelled' : 'done', elapsedMs: performance.now() - startedAt };
    this.#saveNow();
  }

  /** The host's final figures (the throttled updates may lag behind). */
  #showModelActivity(): void {
    const host = this.#host;
    if (!host) return;
    const usage = host.totalUsage();
    const progress = host.progress();
    const any = usage.requests + usage.cacheHits + progress.done + progress.queued + progress.inFlight > 0;
    this.modelActivity = any ? { ...progress, held: false, usage, endpoint: this.modelActivity?.endpoint ?? null, warnings: this.#warnings } : null;
  }

  /** Stops the running analysis; finished cases keep their results. */
  cancel(): void {
    if (!this.#abort) return;
    this.#abort.abort();
    this.#host?.cancel();
    this.#showModelActivity();
    this.#abort = null;
    this.#runCounter++;
    this.#flush(this.#pendingKey);
    if (this.progress) this.progress = { ...this.progress, status: 'cancelled' };
    this.#autosave.schedule();
  }

  /** Moves the results received but not yet shown into the state now (before the page is left). */
  flushPending(): void {
    this.#flush(this.#pendingKey);
  }

  /** The finished results, in case order (what the batch, the session and the report use). */
  finishedResults(): CaseResult[] {
    return this.results.filter((r): r is CaseResult => r !== undefined);
  }

  /** Compiles the study's definition, or takes the outcome of compiling it just now (`loaded`). */
  async #loadDefinition(loaded?: LoadOutcome): Promise<void> {
    const source = this.study?.pipeline?.source;
    if (source === undefined) {
      this.definition = { status: 'none' };
      return;
    }
    this.definition = { status: 'loading' };
    const outcome = loaded ?? (await this.#getPool().load(source, definitionFileName(this.study!)));
    if (this.study?.pipeline?.source !== source) return;
    if (!outcome.ok) {
      this.definition = { status: 'error', problem: outcome.problem };
      this.#navigation.show('definition');
      return;
    }
    this.definition = { status: 'ready', summary: outcome.summary };
    if (this.study.pipeline && this.study.pipeline.name !== outcome.summary.name) {
      this.study = { ...this.study, pipeline: { ...this.study.pipeline, name: outcome.summary.name } };
    }
    // A definition opened on its own brings its own cases.
    if (this.study.cases.length === 0 && this.study.games.length === 0 && outcome.summary.cases.length > 0) {
      this.study = { ...this.study, cases: outcome.summary.cases };
    }
  }

  /** Puts saved results (from a session) in the cache under the current settings. */
  #restore(saved: CaseResult[]): void {
    const study = this.study!;
    const byId = new Map(saved.map((r) => [r.id, r]));
    const ids = [...study.cases.map((c) => c.id), ...study.games.map((g) => g.id)];
    this.#cache.set(this.#key(), ids.map((id) => byId.get(id)));
    this.#showCachedResults();
  }

  /**
   * A reopened session whose saved results already stop the batch (the batch stop on): done,
   * stopped early there, as right after that run; nothing is analysed and nothing offered to resume.
   */
  #restoreStop(): boolean {
    if (!this.batchStop || (this.study!.cases.length > 0 && this.definition.status !== 'ready')) return false;
    const rangeFrom = this.definition.status === 'ready' ? this.definition.summary : (this.study!.games[0] ?? {});
    const at = knownStop(this.results, rangeFrom, this.settings.delta, this.batchBound);
    if (at === undefined) return false;
    this.#stopped = { key: this.#key(), at };
    this.progress = { status: 'done', done: this.finishedResults().length, total: this.itemCount, cost: sumCost(this.results), startedAt: performance.now(), doneThisRun: 0, elapsedMs: 0 };
    this.#autosave.schedule();
    return true;
  }

  #key(): string {
    const summary = this.definition.status === 'ready' ? this.definition.summary : null;
    return settingsKey(this.settings, defaultFixes(summary), this.steps.length);
  }

  #cacheEntry(key: string): (CaseResult | undefined)[] {
    let entry = this.#cache.get(key);
    if (!entry) {
      entry = new Array<CaseResult | undefined>(this.itemCount).fill(undefined);
      this.#cache.set(key, entry);
    }
    return entry;
  }

  /** Shows the results cached for the current settings; with none yet, what is shown stays (marked) until they arrive. */
  #showCachedResults(): void {
    const entry = this.#cache.get(this.#key());
    if ((!entry || entry.every((r) => r === undefined)) && this.results.some((r) => r !== undefined)) {
      this.previousShown = true;
      return;
    }
    this.previousShown = false;
    this.results = entry ? [...entry] : [];
  }

  /** The finished results of the current settings (what is saved: never the previous settings' results on show). */
  currentResults(): CaseResult[] {
    const entry = this.#cache.get(this.#key());
    return this.previousShown ? (entry ?? []).filter((r): r is CaseResult => r !== undefined) : this.finishedResults();
  }

  #scheduleFlush(key: string): void {
    if (this.#flushTimer !== undefined) return;
    this.#flushTimer = setTimeout(() => this.#flush(key), FLUSH_MS);
  }

  /** Moves pending results into the state in one update. */
  #flush(key: string): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    if (key !== this.#key()) return;
    if (this.previousShown) {
      // The first results of the new settings replace the previous settings' on show.
      this.previousShown = false;
      this.results = [...this.#cacheEntry(key)];
    }
    const next = [...this.results];
    let cost = this.progress?.cost ?? 0;
    for (const { index, result } of pending) {
      next[index] = result;
      cost += result.cost;
    }
    this.results = next;
    if (this.progress) {
      this.progress = {
        ...this.progress,
        done: this.progress.done + pending.length,
        doneThisRun: this.progress.doneThisRun + pending.length,
        cost,
        elapsedMs: performance.now() - this.progress.startedAt,
      };
    }
    // A run's first results are stored at once (a reload right after them finds them); later ones
    // through the autosave's throttle, as building the session on every flush made long tasks.
    if (this.progress && this.progress.doneThisRun === pending.length) this.#saveNow();
    else this.#autosave.schedule();
  }

  #saveNow(): void {
    if (this.#autosave.saveNow) this.#autosave.saveNow();
    else this.#autosave.schedule();
  }

  #aggregate(): BatchResult | null {
    // Stopped early under these settings: the batch counts the cases up to the stop.
    const stoppedAt = this.#stopped !== null && this.#stopped.key === this.#key() ? this.#stopped.at : undefined;
    const counted = stoppedAt === undefined ? this.results : this.results.slice(0, stoppedAt);
    const finished = counted.filter((r): r is CaseResult => r !== undefined);
    if (finished.length === 0) return null;
    // The definition's own range and threshold (or the first game's range), as the command uses them.
    const study = this.definition.status === 'ready' ? this.definition.summary : (this.study?.games[0] ?? {});
    return studyBatch(finished, study, this.settings.delta, this.batchBound, stoppedAt !== undefined);
  }

  #getPool(): RunnerPool {
    this.#pool ??= this.#createPool(this.workerCount);
    return this.#pool;
  }
}

function sumCost(results: readonly (CaseResult | undefined)[]): number {
  let total = 0;
  for (const r of results) if (r) total += r.cost;
  return total;
}
