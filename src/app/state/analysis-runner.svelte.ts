/**
 * The analysis of the open study: the study and the analysis settings, and what is analysed when
 * (open, re-run on a settings change or an edit, cancel, close). Each other concern is a part of
 * its own: the definition's compiling (DefinitionCompiler), the runs' launch through `runStudy`
 * with the pool and a job of the page's model host (AnalysisLaunch), the results per settings
 * (SettingsResults), their batched arrival (ResultBatches), the progress (RunProgressState), the
 * early stop (EarlyStop) and the cases waiting for an endpoint (EndpointWait). Opening files is
 * the StudyOpener's job and where the user is, the Navigation's; the autosave is injected.
 * Components read these runes and call the methods; everything that crosses to a worker or to
 * IndexedDB is raw (never a proxy).
 */
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import type { AnalysisSettings, BatchBound, BatchResult, CaseDef, CaseResult } from '../../engine/types.ts';
import type { BatchStopRule } from '../../engine/setting-choices.ts';
import type { ModelActivity, PageModelHost, PageModelJob } from '../model/page-model-host.svelte.ts';
import type { EndpointWait } from '../model/endpoint-wait.svelte.ts';
import { poolSize } from '../analysis/pool-size.ts';
import type { DefinitionProblem, LoadOutcome, RegressionGameOutcome, VersionFile } from '../../pool/page/protocol.ts';
import { definitionFileName, type Study } from '../importing/study.ts';
import { DefinitionCompiler, studyCompletedBy, type DefinitionState } from './definition-compiler.svelte.ts';
import { AnalysisLaunch, type RunnerPool } from './analysis-launch.svelte.ts';
import { defaultFixes } from './default-fixes.ts';
import type { RunProgress } from './run-progress.ts';
import type { Navigation } from '../navigation/navigation.svelte.ts';
import { settingsKey } from './settings-key.ts';
import { SettingsResults } from './settings-results.svelte.ts';
import { ResultBatches, type Arrived } from './result-batches.ts';
import { RunProgressState } from './run-progress-state.svelte.ts';
import { EarlyStop } from './early-stop.svelte.ts';
import { studyRequestBound } from '../replay/study-request-bound.ts';
import type { SessionContrast, StudyMeta } from '../../session/types.ts';

export type { DefinitionState, RunnerPool };

/** What the runner tells when its results or settings change (the session autosave). */
export interface Autosave {
  schedule(): void;
  /** Saves now (a study just opened is stored at once, so a reload finds it). */
  saveNow?(): void;
}

/** Results reach the page's state at most this often, so a fast analysis never floods it. */
const FLUSH_MS = 200;
/** Settings changes wait this long for the next keystroke before re-running. */
const RERUN_DELAY_MS = 350;

export class AnalysisRunner {
  study = $state.raw<Study | null>(null);
  /** The study's definition: compiled when it opens, an edit before it replaces it. */
  readonly #compiler: DefinitionCompiler;
  readonly #launch: AnalysisLaunch;
  get definition(): DefinitionState {
    return this.#compiler.definition;
  }
  settings = $state.raw<AnalysisSettings>({ ...DEFAULT_SETTINGS });
  /** How the batch CI is computed; changes only the aggregation, never re-runs cases. */
  batchBound = $state<BatchBound>('normal');
  /**
   * Stop analysing once the top step is separated from every other (the command's --batch-stop,
   * decided under `batchBound`): the next analysis stops there; the batch counts the cases up to it.
   */
  batchStop = $state(false);
  /** How the batch stop decides (the command's --batch-stop bandit): 'bandit' also shares step runs across cases (settings.shareSteps). */
  batchStopRule = $state<BatchStopRule>('top');
  /** Where the last analysis stopped early, under which settings: the batch counts the items up to it. */
  readonly #early = new EarlyStop();
  /** The results per settings, and those on screen. */
  readonly #shown = new SettingsResults(() => this.itemCount);
  readonly #progress = new RunProgressState();
  /** Results reach the page's state at most every FLUSH_MS. */
  readonly #batches = new ResultBatches((key, arrived) => this.#deliver(key, arrived), FLUSH_MS);
  /** Results by case index for the current settings (undefined = not analysed yet). */
  get results(): (CaseResult | undefined)[] {
    return this.#shown.shown;
  }
  get progress(): RunProgress | null {
    return this.#progress.progress;
  }
  /** Model requests of the running (or last) analysis; null when it made none. */
  get modelActivity(): ModelActivity | null {
    return this.#launch.modelActivity;
  }
  /** The model job of the running (or last) analysis (its request log); null before one. */
  get modelJob(): PageModelJob | null {
    return this.#launch.job;
  }
  /**
   * An edit of the definition that could not be used: the results and the definition stay those of
   * the previous code (the page says so) until an edit compiles.
   */
  get editProblem(): DefinitionProblem | null {
    return this.#compiler.editProblem;
  }
  /** The definition as the study was opened (what Revert goes back to, however often it was re-run). */
  openedSource = $state.raw<string | null>(null);
  /**
   * The results shown are those of the previous settings: new settings keep them on screen until
   * their own first results arrive (switching to Monte Carlo no longer empties the view).
   */
  get previousShown(): boolean {
    return this.#shown.previousShown;
  }
  /** Time limit for one case, in seconds (the command's --timeout). */
  caseTimeoutS = $state(10);
  /** Workers in the analysis pool (a `?workers=N` query overrides the default). */
  get workerCount(): number {
    return this.#launch.workerCount;
  }

  batch: BatchResult | null = $derived.by(() => this.#aggregate());

  /** Step names, from the definition or the games. */
  steps: string[] = $derived.by(() => {
    if (this.definition.status === 'ready') return this.definition.summary.steps.map((s) => s.name);
    const first = this.study?.games[0];
    return first ? [...first.players] : [];
  });

  /** The page's model host: every analysis's requests go through a job of it (model ids are in the settings). */
  readonly model: PageModelHost;
  /** Cases of model steps that no stored response answers wait for an endpoint, instead of each failing. */
  readonly endpointWait: EndpointWait;

  /** Send the model requests the analysis paused before (more than the Model panel's threshold). */
  sendHeldRequests(): void {
    this.#launch.sendHeldRequests();
  }
  #rerunTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #autosave: Autosave;
  readonly #navigation: Navigation;

  /** `endpointWait`: made by the page's assembly over the same model host, re-running this runner. */
  constructor(workerCount: number, deps: { autosave: Autosave; navigation: Navigation; model: PageModelHost; endpointWait: EndpointWait; createPool?: (workers: number) => RunnerPool }) {
    this.model = deps.model;
    this.endpointWait = deps.endpointWait;
    this.#autosave = deps.autosave;
    this.#navigation = deps.navigation;
    this.#launch = new AnalysisLaunch(workerCount, deps);
    this.#compiler = new DefinitionCompiler((source, fileName) => this.#launch.compile(source, fileName));
  }

  /** Workers in the pool for this page: a `?workers=N` query overrides one per core, less one. */
  static workersForPage(): number {
    const requested = Number(new URLSearchParams(location.search).get('workers'));
    return Number.isInteger(requested) && requested > 0 && requested <= 16 ? requested : poolSize(navigator.hardwareConcurrency);
  }

  /**
   * Starts the analysis workers now (their bundle, the sandbox's lockdown), while the page is still
   * opening or the user is choosing a study, instead of when the first definition is compiled; once
   * the page is idle they warm their engine up (stopped by the first definition to compile).
   */
  startWorkers(): void {
    this.#launch.startWarm();
  }

  /** The settings a new study starts with. */
  defaultSettings(): AnalysisSettings {
    return { ...DEFAULT_SETTINGS };
  }

  get itemCount(): number {
    return this.study ? this.study.cases.length + this.study.games.length : 0;
  }

  get running(): boolean {
    return this.#progress.running;
  }

  /**
   * Replaces the open study, compiles its definition and analyses it (resolves when the analysis
   * ends). `keepNavigation` keeps the view and case set beforehand (a link being reopened).
   */
  async openStudy(
    study: Study,
    options: { keepSettings?: boolean; results?: CaseResult[]; settings?: AnalysisSettings; autoRun?: boolean; stopped?: boolean; keepNavigation?: boolean; edited?: boolean; loaded?: LoadOutcome; batch?: { bound: BatchBound; stop: boolean; rule?: BatchStopRule } } = {},
  ): Promise<void> {
    this.cancel();
    this.#shown.clear();
    this.endpointWait.reset();
    this.#early.clear();
    this.study = study;
    this.#compiler.editProblem = null;
    if (!options.edited) this.openedSource = study.pipeline?.source ?? null;
    if (!options.keepNavigation) this.#navigation.reset();
    if (options.settings) this.settings = options.settings;
    else if (!options.keepSettings) this.settings = { ...DEFAULT_SETTINGS };
    if (options.batch) {
      this.batchBound = options.batch.bound;
      this.batchStop = options.batch.stop;
      this.batchStopRule = options.batch.rule ?? 'top';
    }
    this.#progress.clear();
    await this.#loadDefinition(options.loaded);
    if (options.results && options.results.length > 0) this.#restore(options.results);
    if (options.results && options.results.length > 0 && this.#restoreStop()) return;
    if (options.autoRun === false) {
      // A reopened session that was interrupted (or stopped): show what finished and offer to resume.
      const done = this.finishedResults().length;
      this.#progress.start(done >= this.itemCount ? 'done' : options.stopped ? 'cancelled' : 'interrupted', this.results, this.itemCount);
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
      const outcome = await this.#compiler.compileEdit(edited, source, () => this.study === study);
      if (outcome) await this.openStudy(edited, { keepSettings: true, keepNavigation: true, edited: true, loaded: outcome });
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

  /** Keeps the study's metadata (the Trends view's edit), saved with its session. */
  keepMeta(meta: StudyMeta): void {
    if (!this.study) return;
    this.study = { ...this.study, meta };
    this.#autosave.schedule();
  }

  /** Closes the study and returns to the landing page. */
  close(): void {
    this.cancel();
    this.#shown.clear();
    this.endpointWait.reset();
    this.#early.clear();
    this.study = null;
    this.#compiler.clear();
    this.openedSource = null;
    this.#progress.clear();
    this.#navigation.reset();
  }

  /** Changes settings and re-runs (after a short pause) the cases whose results they change. */
  updateSettings(patch: Partial<AnalysisSettings>): void {
    // A field that fires `change` again with the same value (on blur) must not restart a running analysis.
    const current = this.settings as unknown as Record<string, unknown>;
    if (Object.entries(patch).every(([name, value]) => JSON.stringify(current[name]) === JSON.stringify(value))) return;
    this.settings = { ...this.settings, ...patch };
    this.#shown.show(this.#key());
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
    if (!on && this.#early.at(this.#key()) !== undefined) void this.analyze();
  }

  /**
   * Chooses how the batch stop decides. The bandit stop runs its cases with shared step runs, so it
   * sets the shareSteps setting too (the same values, a lower cost: the results key changes, and the
   * next analysis runs under it).
   */
  setBatchStopRule(rule: BatchStopRule): void {
    this.batchStopRule = rule;
    this.#autosave.schedule();
    if (rule === 'bandit') this.updateSettings({ shareSteps: true });
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
    const results = this.#shown.beginRun(key);
    const missing = results.filter((r) => r === undefined).length;
    this.#progress.start(missing === 0 ? 'done' : 'running', results, this.itemCount);
    if (missing === 0) return;
    this.#early.resume(key);

    const summary = this.#compiler.summary ?? undefined;
    const outcome = await this.#launch.run({
      // A study of games only needs no definition (one that does not compile does not stop them).
      study: { ...(study.cases.length > 0 && { source: study.pipeline?.source }), fileName: definitionFileName(study), cases: study.cases, games: study.games },
      carried: study.modelResponses ?? [],
      settings: this.settings,
      batchBound: this.batchBound,
      batchStop: this.batchStop,
      batchStopRule: this.batchStopRule,
      ...(summary && { summary }),
      // A replay's progress counts requests (its one case takes minutes): the most its cases left can send.
      requestBound: studyRequestBound(study.pipeline?.source, study.cases, results, this.steps.length, this.settings),
      known: results,
      itemCount: this.itemCount,
      caseTimeoutS: this.caseTimeoutS,
      onResult: (index, result) => {
        results[index] = result;
        this.#batches.push(key, { index, result });
      },
    });
    if (outcome === null) return;
    this.#batches.flush();
    if (key !== this.#key()) {
      // The settings changed while this run went on: its end says nothing of the results on show
      // ("Done" beside "Waiting for the first results"). Theirs starts now, not after the pause.
      void this.analyze();
      return;
    }
    const stoppedAt = outcome.status === 'done' ? outcome.stoppedAt : undefined;
    if (stoppedAt !== undefined) this.#early.stoppedAt(key, stoppedAt);
    this.#progress.end(outcome.status === 'cancelled' ? 'cancelled' : 'done');
    this.#saveNow();
  }

  /** The regression game of `after` against `before`, built in the pool's sandbox (docs/ci.md). */
  regressionGame(after: VersionFile, before: VersionFile): Promise<RegressionGameOutcome> {
    return this.#launch.regressionGame(after, before, this.caseTimeoutS);
  }

  /**
   * Analyses a definition's cases beside the open study, in the same pool and under its settings,
   * without opening it (the regression game's reverse, docs/ci.md): the results, or why the
   * definition could not be used.
   */
  analyzeAside(source: string, fileName: string, cases: readonly CaseDef[]): Promise<CaseResult[] | { problem: string }> {
    return this.#launch.analyzeAside({ source, fileName, cases }, { carried: this.study?.modelResponses ?? [], settings: this.settings, batchBound: this.batchBound, caseTimeoutS: this.caseTimeoutS });
  }

  /** Stops the running analysis; finished cases keep their results. */
  cancel(): void {
    if (!this.#launch.cancel()) return;
    this.#batches.flush();
    this.#progress.cancel();
    this.#autosave.schedule();
  }

  /** Moves the results received but not yet shown into the state now (before the page is left). */
  flushPending(): void {
    this.#batches.flush();
  }

  /** The finished results, in case order (what the batch, the session and the report use). */
  finishedResults(): CaseResult[] {
    return this.#shown.finished();
  }

  /** Compiles the study's definition, or takes the outcome of compiling it just now (`loaded`). */
  async #loadDefinition(loaded?: LoadOutcome): Promise<void> {
    const compiled = await this.#compiler.compile(this.study!, (source) => this.study?.pipeline?.source === source, loaded);
    if (compiled === 'failed') this.#navigation.show('definition');
    else if (compiled !== 'none' && compiled !== 'superseded') this.study = studyCompletedBy(this.study!, compiled);
  }

  /** Puts saved results (from a session) in the cache under the current settings. */
  #restore(saved: CaseResult[]): void {
    const study = this.study!;
    this.#shown.restore(this.#key(), [...study.cases.map((c) => c.id), ...study.games.map((g) => g.id)], saved);
  }

  /**
   * A reopened session whose saved results already stop the batch (the batch stop on): done,
   * stopped early there, as right after that run; nothing is analysed and nothing offered to resume.
   */
  #restoreStop(): boolean {
    if (!this.batchStop || (this.study!.cases.length > 0 && this.definition.status !== 'ready')) return false;
    if (!this.#early.restore(this.#key(), this.results, this.#rangeFrom(), this.settings.delta, this.batchBound, this.batchStopRule)) return false;
    this.#progress.start('done', this.results, this.itemCount);
    this.#autosave.schedule();
    return true;
  }

  #key(): string {
    return settingsKey(this.settings, defaultFixes(this.#compiler.summary), this.steps.length);
  }

  /** The definition's own range and threshold (or the first game's range), as the command uses them. */
  #rangeFrom(): { range?: readonly [number, number]; threshold?: number } {
    return this.definition.status === 'ready' ? this.definition.summary : (this.study?.games[0] ?? {});
  }

  /** The finished results of the current settings (what is saved: never the previous settings' results on show). */
  currentResults(): CaseResult[] {
    return this.#shown.finishedOf(this.#key());
  }

  /** Results of a run reach the page's state in one update. */
  #deliver(key: string, arrived: Arrived[]): void {
    if (!this.#shown.apply(key, this.#key(), arrived)) return;
    // A run's first results are stored at once (a reload right after them finds them); later ones
    // through the autosave's throttle, as building the session on every flush made long tasks.
    if (this.#progress.advance(arrived)) this.#saveNow();
    else this.#autosave.schedule();
  }

  #saveNow(): void {
    if (this.#autosave.saveNow) this.#autosave.saveNow();
    else this.#autosave.schedule();
  }

  #aggregate(): BatchResult | null {
    // Stopped early under these settings: the batch counts the cases up to the stop.
    return this.#early.batch(this.#key(), this.results, this.#rangeFrom(), this.settings.delta, this.batchBound, this.batchStop ? this.batchStopRule : 'top');
  }
}
