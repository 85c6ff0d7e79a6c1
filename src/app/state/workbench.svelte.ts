/**
 * The workbench's state: the open study, its pipeline definition, the analysis settings, the
 * results per case, and the progress of the running analysis. Components read these runes and
 * call the methods; everything that crosses to a worker or to IndexedDB is raw (never a proxy).
 */
import { aggregateBatch, DEFAULT_SETTINGS, studyBatchOptions } from '../../engine/index.ts';
import type { AnalysisSettings, BatchBound, BatchResult, CaseResult } from '../../engine/types.ts';
import { AnalysisPool, type WorkItem } from '../analysis/analysis-pool.ts';
import { ModelConnection } from '../model/model-connection.svelte.ts';
import { createAnalysisWorker } from '../analysis/create-analysis-worker.ts';
import { poolSize } from '../analysis/pool-size.ts';
import type { DefinitionProblem, DefinitionSummary } from '../analysis/protocol.ts';
import { importInWorker } from '../importing/import-client.ts';
import type { ImportProblem, ImportProgress } from '../importing/import-protocol.ts';
import { definitionFileName, type Study } from '../importing/study.ts';
import { defaultFixes } from './default-fixes.ts';
import type { RunProgress } from './run-progress.ts';
import type { Session } from '../../session/types.ts';
import { mergeStudySessions, type NamedSession } from '../../session/merge-study.ts';
import { settingsKey } from './settings-key.ts';
import type { RecordedRunFile } from '../../runs/types.ts';
import type { Predictions } from '../../runs/score.ts';

export type View = 'batch' | 'cases' | 'case' | 'definition';

export type DefinitionState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'ready'; summary: DefinitionSummary }
  | { status: 'error'; problem: DefinitionProblem };

/** A problem to show in the banner: what went wrong and with which file. */
export interface Notice {
  title: string;
  problem: ImportProblem;
}

/** Results reach the page's state at most this often, so a fast analysis never floods it. */
const FLUSH_MS = 200;
/** Settings changes wait this long for the next keystroke before re-running. */
const RERUN_DELAY_MS = 350;

export class Workbench {
  study = $state.raw<Study | null>(null);
  definition = $state.raw<DefinitionState>({ status: 'none' });
  settings = $state.raw<AnalysisSettings>({ ...DEFAULT_SETTINGS });
  /** How the batch CI is computed; changes only the aggregation, never re-runs cases. */
  batchBound = $state<BatchBound>('normal');
  /** Results by case index for the current settings (undefined = not analysed yet). */
  results = $state.raw<(CaseResult | undefined)[]>([]);
  progress = $state.raw<RunProgress | null>(null);
  importing = $state.raw<(ImportProgress & { fileName: string }) | null>(null);
  notice = $state.raw<Notice | null>(null);
  view = $state<View>('batch');
  selectedCaseId = $state<string | null>(null);
  /** Workers in the analysis pool (a `?workers=N` query overrides the default). */
  readonly workerCount: number;

  batch: BatchResult | null = $derived.by(() => this.#aggregate());

  /** Step names, from the definition or the games. */
  steps: string[] = $derived.by(() => {
    if (this.definition.status === 'ready') return this.definition.summary.steps.map((s) => s.name);
    const first = this.study?.games[0];
    return first ? [...first.players] : [];
  });

  #pool: AnalysisPool | null = null;
  /** Where model steps' requests go (base URL, key, concurrency); model ids are in the settings. */
  readonly modelConnection = new ModelConnection();
  #cache = new Map<string, (CaseResult | undefined)[]>();
  #abort: AbortController | null = null;
  #pending: { index: number; result: CaseResult }[] = [];
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #rerunTimer: ReturnType<typeof setTimeout> | undefined;
  #runCounter = 0;
  /** Called after results or settings change (the session autosave hooks in here). */
  onChange: (() => void) | null = null;
  /** Called with a session file or report that was opened (the session store takes it from here). */
  onSessionFile: ((session: Session) => Promise<void>) | null = null;
  /** Called when a new study replaces the open one (not when a saved session is reopened). */
  onNewStudy: ((study: Study) => void) | null = null;

  constructor(workerCount: number) {
    this.workerCount = workerCount;
  }

  static fromPage(): Workbench {
    const requested = Number(new URLSearchParams(location.search).get('workers'));
    const count = Number.isInteger(requested) && requested > 0 && requested <= 16 ? requested : poolSize(navigator.hardwareConcurrency);
    return new Workbench(count);
  }

  get itemCount(): number {
    return this.study ? this.study.cases.length + this.study.games.length : 0;
  }

  get running(): boolean {
    return this.progress?.status === 'running';
  }

  /** Recorded runs and predictions go to the run view (src/app/runs/), not to the analysis. */
  onRecordedRuns: ((input: { runs?: RecordedRunFile; predictions?: Predictions }, fileName: string) => void) | null = null;
  /** Many files at once: the run view takes those holding recorded runs and returns the rest. */
  onManyFiles: ((files: readonly File[]) => Promise<File[]>) | null = null;

  /** Opens dropped or picked files: traces and games first, then `.js` definitions to pair with them. */
  async openFiles(files: readonly File[]): Promise<void> {
    if (files.length > 1 && this.onManyFiles) files = await this.onManyFiles(files);
    const ordered = [...files].sort((a, b) => Number(isDefinitionFile(a.name)) - Number(isDefinitionFile(b.name)));
    // Several session files dropped together are parts of one study: merged, as the command merges them.
    const sessions: NamedSession[] | undefined = files.length > 1 ? [] : undefined;
    for (const file of ordered) await this.openSource(file, file.name, sessions);
    if (sessions && sessions.length > 0) await this.openSessionFiles(sessions);
  }

  /** Opens session files dropped together: one as it is, several merged into one study (docs/shards.md). */
  async openSessionFiles(sessions: readonly NamedSession[]): Promise<void> {
    if (sessions.length === 1) return this.onSessionFile?.(sessions[0].session);
    let merged;
    try {
      merged = mergeStudySessions(sessions, { allowPartial: true });
    } catch (error) {
      this.notice = { title: `Could not merge ${sessions.length} session files`, problem: { message: error instanceof Error ? error.message : String(error) } };
      return;
    }
    await this.onSessionFile?.(merged.session);
    // A partial merge opens as a study to resume: the missing cases are analysed here.
    if (merged.missing.length > 0) this.notice = { title: `Merged ${sessions.length} session files; some cases had no result`, problem: { message: merged.missingText } };
  }

  /**
   * Opens a file's contents (a Blob, or text from paste, a demo or `?trace=`). A session file is
   * opened, or added to `sessions` when given (files dropped together, merged by openFiles).
   */
  async openSource(source: Blob | string, fileName: string, sessions?: NamedSession[]): Promise<void> {
    this.notice = null;
    this.importing = { phase: 'reading', loaded: 0, total: typeof source === 'string' ? source.length : source.size, fileName };
    try {
      const imported = await importInWorker(source, fileName, (progress) => {
        this.importing = { ...progress, fileName };
      });
      if (!imported.ok) {
        this.notice = { title: `Could not open ${fileName}`, problem: imported.problem };
        return;
      }
      const { outcome } = imported;
      if (outcome.kind === 'session' && outcome.session) {
        if (sessions) sessions.push({ file: fileName, session: outcome.session });
        else await this.onSessionFile?.(outcome.session);
        return;
      }
      if ((outcome.kind === 'runs' || outcome.kind === 'predictions') && this.onRecordedRuns) {
        this.onRecordedRuns({ runs: outcome.runs, predictions: outcome.predictions }, fileName);
        return;
      }
      if (outcome.kind === 'pipeline' && outcome.pipeline) {
        await this.pairDefinition(outcome.pipeline, fileName);
        return;
      }
      await this.openStudy({
        fileName,
        name: outcome.pipeline?.name ?? outcome.name ?? fileName.replace(/\.(trace|game)?\.?jsonl?$/i, ''),
        ...(outcome.pipeline ? { pipeline: outcome.pipeline } : {}),
        cases: imported.cases,
        games: imported.games,
      });
    } catch (error) {
      this.notice = { title: `Could not open ${fileName}`, problem: { message: error instanceof Error ? error.message : String(error) } };
    } finally {
      this.importing = null;
    }
  }

  /** A `.js` definition: pairs with the open trace, or opens on its own cases when none is open. */
  async pairDefinition(pipeline: { name: string; source: string }, fileName: string): Promise<void> {
    if (this.study && this.study.games.length === 0) {
      await this.openStudy({ ...this.study, pipeline, definitionFile: fileName }, { keepSettings: true, fromSession: true });
      return;
    }
    await this.openStudy({ fileName, name: pipeline.name, pipeline, definitionFile: fileName, cases: [], games: [] });
  }

  /** Replaces the open study, compiles its definition and analyses it. */
  async openStudy(
    study: Study,
    options: { keepSettings?: boolean; results?: CaseResult[]; settings?: AnalysisSettings; fromSession?: boolean; autoRun?: boolean } = {},
  ): Promise<void> {
    this.cancel();
    this.#cache.clear();
    this.study = study;
    this.selectedCaseId = null;
    this.view = 'batch';
    if (options.settings) this.settings = options.settings;
    else if (!options.keepSettings) this.settings = { ...DEFAULT_SETTINGS };
    this.results = [];
    this.progress = null;
    if (!options.fromSession) this.onNewStudy?.(study);
    await this.#loadDefinition();
    if (options.results && options.results.length > 0) this.#restore(options.results);
    if (options.autoRun === false) {
      // A reopened session that was interrupted: show what finished and offer to resume.
      const done = this.finishedResults().length;
      this.progress = { status: done < this.itemCount ? 'cancelled' : 'done', done, total: this.itemCount, cost: sumCost(this.results), startedAt: performance.now(), doneThisRun: 0, elapsedMs: 0 };
      this.onChange?.();
      return;
    }
    this.onChange?.();
    await this.analyze();
  }

  /** Closes the study and returns to the landing page. */
  close(): void {
    this.cancel();
    this.#cache.clear();
    this.study = null;
    this.definition = { status: 'none' };
    this.results = [];
    this.progress = null;
    this.notice = null;
    this.selectedCaseId = null;
  }

  /** Changes settings and re-runs (after a short pause) the cases whose results they change. */
  updateSettings(patch: Partial<AnalysisSettings>): void {
    this.settings = { ...this.settings, ...patch };
    this.#showCachedResults();
    clearTimeout(this.#rerunTimer);
    this.#rerunTimer = setTimeout(() => void this.analyze(), RERUN_DELAY_MS);
    this.onChange?.();
  }

  /** Chooses the fix a step uses. */
  chooseFix(step: string, fix: string): void {
    this.updateSettings({ fixChoice: { ...(this.settings.fixChoice ?? {}), [step]: fix } });
  }

  openCase(id: string): void {
    this.selectedCaseId = id;
    this.view = 'case';
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
    const items: WorkItem[] = [];
    study.cases.forEach((caseDef, index) => {
      if (results[index] === undefined) items.push({ kind: 'case', index, caseDef });
    });
    study.games.forEach((game, gameIndex) => {
      const index = study.cases.length + gameIndex;
      if (results[index] === undefined) items.push({ kind: 'game', index, game });
    });
    this.results = [...results];
    const startedAt = performance.now();
    const done = results.filter((r) => r !== undefined).length;
    this.progress = { status: items.length === 0 ? 'done' : 'running', done, total: this.itemCount, cost: sumCost(results), startedAt, doneThisRun: 0, elapsedMs: 0 };
    if (items.length === 0) return;

    const abort = new AbortController();
    this.#abort = abort;
    const run = ++this.#runCounter;
    const pool = this.#getPool();
    const outcome = await pool.run(
      {
        items,
        source: study.pipeline?.source,
        fileName: definitionFileName(study),
        settings: this.settings,
        players: this.steps,
        onResult: (index, result) => {
          if (run !== this.#runCounter) return;
          results[index] = result;
          this.#pending.push({ index, result });
          this.#scheduleFlush(key);
        },
      },
      abort.signal,
    );
    if (run !== this.#runCounter) return;
    this.#flush(key);
    this.#abort = null;
    this.progress = { ...this.progress!, status: outcome === 'done' ? 'done' : 'cancelled', elapsedMs: performance.now() - startedAt };
    this.onChange?.();
  }

  /** Stops the running analysis; finished cases keep their results. */
  cancel(): void {
    if (!this.#abort) return;
    this.#abort.abort();
    this.#abort = null;
    this.#runCounter++;
    this.#flush(this.#key());
    if (this.progress) this.progress = { ...this.progress, status: 'cancelled' };
    this.onChange?.();
  }

  /** The finished results, in case order (what the batch, the session and the report use). */
  finishedResults(): CaseResult[] {
    return this.results.filter((r): r is CaseResult => r !== undefined);
  }

  async #loadDefinition(): Promise<void> {
    const source = this.study?.pipeline?.source;
    if (source === undefined) {
      this.definition = { status: 'none' };
      return;
    }
    this.definition = { status: 'loading' };
    const outcome = await this.#getPool().load(source, definitionFileName(this.study!));
    if (this.study?.pipeline?.source !== source) return;
    if (!outcome.ok) {
      this.definition = { status: 'error', problem: outcome.problem };
      this.view = 'definition';
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

  #showCachedResults(): void {
    const entry = this.#cache.get(this.#key());
    this.results = entry ? [...entry] : [];
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
    this.onChange?.();
  }

  #aggregate(): BatchResult | null {
    const finished = this.results.filter((r): r is CaseResult => r !== undefined);
    if (finished.length === 0) return null;
    // The definition's own range and threshold (or the first game's range), as the command uses them.
    const study = this.definition.status === 'ready' ? this.definition.summary : (this.study?.games[0] ?? {});
    return aggregateBatch(finished, studyBatchOptions(study, this.settings.delta, this.batchBound));
  }

  #getPool(): AnalysisPool {
    this.#pool ??= new AnalysisPool(this.workerCount, createAnalysisWorker);
    return this.#pool;
  }
}

function isDefinitionFile(name: string): boolean {
  return /\.(m?js)$/i.test(name);
}

function sumCost(results: readonly (CaseResult | undefined)[]): number {
  let total = 0;
  for (const r of results) if (r) total += r.cost;
  return total;
}
