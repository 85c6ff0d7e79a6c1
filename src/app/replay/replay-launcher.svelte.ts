/**
 * "Blame this run", from the run view to the study and back: opens the setup of a run, turns it
 * into a study of its replay definition (a new session, autosaved like any), and takes the user
 * from a player of that study back to its turn in the run view while the run is open.
 */
import type { AnalysisSettings } from '../../engine/types.ts';
import type { ReplayDefinition } from '../../replay/index.ts';
import type { OpenRun, RunsState } from '../runs/runs-state.svelte.ts';
import type { AnalysisRunner } from '../state/analysis-runner.svelte.ts';
import type { StudyOpener } from '../state/study-opener.svelte.ts';
import { PageAnalysisPool } from '../../pool/page/analysis-pool.ts';
import { createAnalysisWorker } from '../analysis/create-analysis-worker.ts';
import { CacheCount } from './cache-count.svelte.ts';
import { ContrastRun, type AnalyseCases } from './contrast-run.svelte.ts';
import { withRunContrast } from './stored-contrast.ts';
import { runStudy } from '../../pool/run-study.ts';
import { pageStudyPool } from '../analysis/page-study-pool.ts';
import type { CaseResult } from '../../engine/types.ts';
import { readToolNames } from './tool-names.ts';
import { ReplaySetup } from './replay-setup.svelte.ts';
import { recordingOf } from './recording-of.ts';
import type { KeptSetups } from './kept-setups.ts';
import type { RestoreOutcome } from '../runs/runs-keeper.svelte.ts';

/**
 * Where the run of a reopened replay study stands: its file is being read from this browser's
 * store, was opened from it, is not kept there (any more), or the store cannot be used here.
 */
export type KeptRunState = 'looking' | 'opened' | 'missing' | 'unavailable';

export class ReplayLauncher {
  /** The setup being filled in (the run view shows it instead of the run), or null. */
  setup = $state.raw<ReplaySetup | null>(null);
  /** The key of the run whose setup is shown (the run view's address names it), or null. */
  setupKey = $state<string | null>(null);
  /** A study is being opened from a setup (the address waits for it). */
  opening = $state(false);
  /** Each run's setup as it was left: reopened (Back, Cancel then Blame this run again), it keeps its outcome, stubs and fixes. */
  readonly #setups = new WeakMap<object, ReplaySetup>();
  readonly count: CacheCount;
  readonly contrast: ContrastRun;
  /** Why the setup could not be kept in this browser (a full or refused storage), or ''. */
  keepProblem = $state('');
  #keptProblem = '';
  /** The run of the open replay study, when it was not open and was looked for among the files kept in this browser; null otherwise. */
  keptRun = $state<KeptRunState | null>(null);
  /** Reopens a run from the files kept in this browser (the run view's RunsKeeper); set by the page. */
  restoreRun: ((place: { key: string | null; stepId: string | null }) => Promise<RestoreOutcome>) | null = null;
  /** Studies whose run was looked for already (each once: a file removed meanwhile is not asked for again and again). */
  readonly #looked = new WeakSet<object>();
  /** The definition of the replay study last opened from a setup (the contrast replays are made from its parts). */
  definition = $state.raw<ReplayDefinition | null>(null);
  readonly #runs: RunsState;
  readonly #runner: AnalysisRunner;
  readonly #opener: StudyOpener;
  readonly #sessionNames: () => Promise<readonly string[]>;
  readonly #kept: KeptSetups | null;

  /**
   * `sessionNames`: the names of the sessions stored in this browser (a new Blame of a run gets a
   * name none has). `keptSetups`: each run's setup kept in this browser (a reload reopens it as left).
   */
  constructor(deps: { runs: RunsState; runner: AnalysisRunner; opener: StudyOpener; sessionNames?: () => Promise<readonly string[]>; keptSetups?: KeptSetups }) {
    this.#kept = deps.keptSetups ?? null;
    this.#runs = deps.runs;
    this.#runner = deps.runner;
    this.#opener = deps.opener;
    this.#sessionNames = deps.sessionNames ?? (async () => []);
    this.count = new CacheCount(deps.runner.model.store, () => new PageAnalysisPool(1, createAnalysisWorker));
    this.contrast = new ContrastRun(this.#analyseInPool, (run, n, report) => {
      // Only while the study it was replayed for is still the one open.
      const study = this.#runner.study;
      if (study && this.definitionFor(run)) this.#runner.keepContrast(withRunContrast(study.contrast, n, run, report, study.cases.map((c) => c.id)));
    });
  }

  /**
   * Contrast replays run as a study (runStudy, as the command runs them) in a pool of their own,
   * their requests through a job of the page's model host: the Model panel's endpoint, time limit
   * and ask-before guard, this browser's response store.
   */
  #analyseInPool: AnalyseCases = async (job, signal, onResult) => {
    const model = this.#runner.model.open();
    this.contrast.job = model;
    const pool = new PageAnalysisPool(Math.min(2, this.#runner.workerCount), createAnalysisWorker);
    let done = 0;
    try {
      const outcome = await runStudy({
        pool: pageStudyPool(pool, Math.min(2, this.#runner.workerCount)),
        study: { source: job.source, fileName: `${job.name.slice(0, 80)}.js`, cases: job.cases },
        settings: job.settings,
        batchBound: 'normal',
        model,
        signal,
        onResult: () => onResult(++done),
      });
      if (outcome.status === 'bad-definition') throw new Error(outcome.problem.message);
      if (outcome.status === 'no-cases') return [];
      if (outcome.status === 'cancelled') model.cancel();
      return outcome.results.filter((r): r is CaseResult => r !== undefined);
    } finally {
      model.finish();
      pool.dispose();
    }
  };

  /** The definition a replay case was made from here, when it is still the one open (the contrast needs its parts). */
  definitionFor(runId: string): ReplayDefinition | null {
    const def = this.definition;
    const pipeline = this.#runner.study?.pipeline;
    return def && pipeline?.source === def.source && def.runs.some((r) => r.id === runId) ? def : null;
  }

  get runner(): AnalysisRunner {
    return this.#runner;
  }

  /** Opens the setup of the run with this key (the run is selected, so Cancel goes back to it). */
  begin(key: string): void {
    const open = this.#runs.runs.find((r) => r.key === key);
    if (!open) return;
    if (this.#runs.selectedKey !== key) this.#runs.select(key);
    let setup = this.#setups.get(open.run);
    if (!setup) {
      setup = new ReplaySetup(open.run, open.fileName);
      setup.models = this.#runner.settings.models;
      setup.modelParams = this.#runner.settings.modelParams;
      // As it was left before a reload (or in another tab), when this browser kept it.
      const kept = this.#kept?.load(setup.keptKey);
      if (kept) setup.restore(kept);
      this.#setups.set(open.run, setup);
    }
    this.setup = setup;
    this.setupKey = key;
  }

  /** Keeps the setup's fields in this browser (the panel calls it whenever one changes). */
  keep(setup: ReplaySetup): void {
    if (!this.#kept) return;
    const saved = this.#kept.save(setup.keptKey, setup.kept(new Date().toISOString()));
    // Written only when it changes, and compared without reading the rune (the panel's effect calls this).
    const problem = saved ? '' : this.#kept.problem;
    if (problem !== this.#keptProblem) this.keepProblem = this.#keptProblem = problem;
  }

  /** Reads a tool-stubs file into the setup (its names read in a worker of its own), or says why it cannot be used. */
  async readTools(setup: ReplaySetup, file: File): Promise<void> {
    const pool = new PageAnalysisPool(1, createAnalysisWorker);
    try {
      const source = await file.text();
      const read = await readToolNames(file.name, source, (probe, fileName) => pool.load(probe, fileName));
      if (read.ok) {
        setup.tools = { file: { fileName: file.name, source }, names: read.names };
        setup.toolsProblem = '';
      } else {
        setup.toolsProblem = read.problem;
      }
    } catch (error) {
      setup.toolsProblem = `Tool stubs "${file.name}": ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      pool.dispose();
    }
  }

  cancel(): void {
    this.setup = null;
    this.setupKey = null;
    this.count.dispose();
  }

  /** The settings the study starts with, as the count assumes them. */
  settingsFor(setup: ReplaySetup): AnalysisSettings {
    const defaults = this.#runner.defaultSettings();
    return { ...defaults, ...(setup.models && { models: setup.models }), ...(setup.modelParams && { modelParams: setup.modelParams }) };
  }

  /** Opens the replay as a new study (its definition in the Definition view); the run view stays open behind it. */
  async start(definition: ReplayDefinition): Promise<void> {
    const setup = this.setup;
    if (!setup) return;
    // The study is in front before the setup goes, so the run view's address is not written in between.
    this.#runs.behindStudy = true;
    this.opening = true;
    this.cancel();
    this.contrast.cancel();
    this.definition = definition;
    try {
      // Blamed again (another outcome or fixes), the run's study is a new session: its name tells it apart in Recent sessions.
      const name = unusedName(definition.name, await this.#sessionNames().catch(() => []));
      await this.#opener.openNewStudy(
        { fileName: setup.fileName, name, pipeline: { name: definition.name, source: definition.source }, cases: definition.cases, games: [] },
        { settings: this.settingsFor(setup) },
      );
    } finally {
      this.opening = false;
    }
  }

  /**
   * A replay study opened without its run (from Recent sessions, a reload of its address): its
   * run's file is reopened from the files kept in this browser, behind the study, so its turns
   * link to their steps without asking for the file; `keptRun` says when the kept copy is gone.
   */
  async reopenRun(): Promise<void> {
    const study = this.#runner.study;
    const recording = recordingOf(study?.cases[0]);
    if (!study || !recording || !this.restoreRun || this.#looked.has(study)) return;
    this.#looked.add(study);
    if (this.runOf(recording)) {
      this.keptRun = null;
      return;
    }
    this.keptRun = 'looking';
    // Opened behind the study: the study stays in front, and "Back to the runs" shows the run.
    const wasBehind = this.#runs.behindStudy;
    this.#runs.behindStudy = true;
    let state: KeptRunState = 'missing';
    try {
      // The file the study was made from, else any kept file with a run of that id.
      let outcome = await this.restoreRun({ key: `${study.fileName} ${recording.id}`, stepId: null });
      if (outcome.status === 'missing') outcome = await this.restoreRun({ key: recording.id, stepId: null });
      state = outcome.status === 'opened' ? (this.runOf(recording) ? 'opened' : 'missing') : outcome.status;
    } catch {
      state = 'missing';
    }
    // Nothing reopened: a file dropped next opens the run view in front, as it did before.
    if (!this.#runs.open) this.#runs.behindStudy = wasBehind;
    if (this.#runner.study === study) this.keptRun = state;
  }

  /** The open run a replay case was made from (matched by run id), when the run view holds it. */
  runOf(recording: { id: string }): OpenRun | null {
    return this.#runs.runs.find((r) => r.run.id === recording.id) ?? null;
  }

  /** Shows a recorded step of an open run in the run view. */
  showStep(open: OpenRun, stepIndex: number): void {
    this.#runs.select(open.key);
    const step = open.run.steps[stepIndex];
    if (step) this.#runs.selectedStepId = step.id;
    this.#runs.behindStudy = false;
  }

  /** Back from the run view to the replay study behind it; false when no study is open. */
  backToStudy(): boolean {
    if (!this.#runner.study) return false;
    this.#runs.behindStudy = true;
    return true;
  }
}

/** `base`, or `base #2`, `#3`, ...: the first that no stored session has. */
export function unusedName(base: string, taken: readonly string[]): string {
  const names = new Set(taken);
  if (!names.has(base)) return base;
  let n = 2;
  while (names.has(`${base} #${n}`)) n++;
  return `${base} #${n}`;
}
