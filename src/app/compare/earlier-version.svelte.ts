/**
 * "Compare with an earlier version" (docs/ci.md, "In the page"): the regression game of the open
 * definition against an earlier one (a .js file, or a stored session's definition), built in the
 * analysis pool's sandbox, opened as a new study of the open study's cases, and read as the
 * command reads it: which failures are new, and which change caused them (the same engine functions,
 * so the same numbers and the same sentences).
 */
import { regressionSummary, type RegressionSummary } from '../../engine/regression/summary.ts';
import { changeSentences, DEFAULT_GATE_THRESHOLD, gateVerdict, verdictLine } from '../../engine/regression/verdict.ts';
import type { AnalysisSettings } from '../../engine/types.ts';
import type { RegressionGameOutcome, VersionFile } from '../../pool/page/protocol.ts';
import { definitionFileName, type Study } from '../importing/study.ts';
import type { AnalysisRunner } from '../state/analysis-runner.svelte.ts';

/** The regression game opened from this page. */
export interface OpenGame {
  /** The game's definition (the open study is the game while its definition is this). */
  source: string;
  /** The later and the earlier file's names. */
  after: string;
  before: string;
  steps: { name: string; change: string }[];
  /** What differs beyond the steps (metric, threshold, models), as the command prints them. */
  notes: string[];
}

export class EarlierVersion {
  /** The game is being built (its two definitions read in the sandbox). */
  building = $state(false);
  /** Why the earlier version could not be set against the open one (the command's wording). */
  problem = $state<string | null>(null);
  #game = $state.raw<OpenGame | null>(null);
  /** The earlier version is being run on the cases that pass now (the reverse game). */
  checkingFixed = $state(false);
  /** The cases the change fixed, under the settings they were found with; notes of cases the earlier version could not run. */
  #fixed = $state.raw<{ source: string; settings: AnalysisSettings; ids: Set<string>; notes: string[] } | null>(null);

  readonly #runner: AnalysisRunner;
  readonly #open: (study: Study) => Promise<void>;

  /** `open` opens a study as a new session (the study opener's openNewStudy). */
  constructor(runner: AnalysisRunner, open: (study: Study) => Promise<void>) {
    this.#runner = runner;
    this.#open = open;
  }

  /** The game, while the open study is it. */
  get game(): OpenGame | null {
    const game = this.#game;
    return game !== null && this.#runner.study?.pipeline?.source === game.source ? game : null;
  }

  /** The open study can be set against an earlier version: it has a definition that compiled, and cases. */
  get possible(): boolean {
    return this.#runner.definition.status === 'ready' && (this.#runner.study?.cases.length ?? 0) > 0;
  }

  /** The cases the change fixed, once the earlier version ran on the cases passing now under the settings on show. */
  fixedKnown: { ids: Set<string>; notes: string[] } | null = $derived.by(() => {
    const fixed = this.#fixed;
    return fixed !== null && fixed.source === this.game?.source && fixed.settings === this.#runner.settings ? fixed : null;
  });

  /**
   * The regression read off the game's finished results, as the command reads it. Until the reverse
   * game has run, no case counts as fixed (the verdict waits for it).
   */
  summary: RegressionSummary | null = $derived.by(() => {
    const game = this.game;
    const definition = this.#runner.definition;
    if (game === null || definition.status !== 'ready' || this.#runner.batch === null) return null;
    const { threshold, range } = definition.summary;
    return regressionSummary(this.#runner.finishedResults(), this.fixedKnown?.ids ?? new Set(), game.steps, {
      delta: this.#runner.settings.delta,
      bound: this.#runner.batchBound,
      range: [range?.[0] ?? 0, range?.[1] ?? 1],
      threshold: threshold ?? 1,
    });
  });

  /** "the "retriever" change causes 67 % of the new failures; reverting it alone fixes 100 %", largest first. */
  sentences: string[] = $derived(this.summary ? changeSentences(this.summary.rises, (name) => `"${name}"`) : []);

  /** The command's verdict line (`regression: +3 failing cases [...] of 8 (...); caused by "retriever" (...)`), once the fixed cases are known. */
  verdict: string | null = $derived(this.summary && this.fixedKnown ? verdictLine(gateVerdict(this.summary.failureRate, this.summary.rises, DEFAULT_GATE_THRESHOLD), (name) => `"${name}"`) : null);

  /** A stored session's definition as the earlier version. */
  async compareWithSession(session: { name: string; pipeline?: { source: string } }): Promise<void> {
    if (!session.pipeline) {
      this.problem = `The session "${session.name}" has no pipeline definition: the regression game compares two definitions.`;
      return;
    }
    await this.compareWith({ fileName: `${session.name} (stored session)`, source: session.pipeline.source });
  }

  /** Builds the game of the open definition against `before` and opens it with the open study's cases. */
  async compareWith(before: VersionFile): Promise<void> {
    const study = this.#runner.study;
    if (!study?.pipeline || !this.possible) {
      this.problem = 'Open a definition with its cases first: the earlier version is compared with it.';
      return;
    }
    const after: VersionFile = { fileName: definitionFileName(study), source: study.pipeline.source };
    this.building = true;
    this.problem = null;
    let outcome: RegressionGameOutcome;
    try {
      outcome = await this.#runner.regressionGame(after, before);
    } finally {
      this.building = false;
    }
    if (!outcome.ok) {
      this.problem = outcome.message;
      return;
    }
    const name = `${study.pipeline.name} against ${before.fileName}`;
    this.#game = { source: outcome.source, after: after.fileName, before: before.fileName, steps: outcome.steps, notes: outcome.notes };
    this.#fixed = null;
    await this.#open({ fileName: name, name, pipeline: { name, source: outcome.source }, definitionFile: `${after.fileName} against ${before.fileName}`, cases: study.cases, games: [] });
    await this.#findFixed(outcome.source, outcome.reverseSource, `${after.fileName} against ${before.fileName} (reversed)`);
  }

  /**
   * Runs the earlier version on the cases passing now (the game with run and fix swapped), as the
   * command does: its failures are the cases the change fixed. Only once the game's own analysis
   * finished, and only while it is still the study open.
   */
  async #findFixed(source: string, reverseSource: string, fileName: string): Promise<void> {
    const runner = this.#runner;
    if (this.game?.source !== source || runner.progress?.status !== 'done') return;
    const settings = runner.settings;
    const results = runner.finishedResults();
    const passing = new Set(results.filter((r) => r.error === undefined && !r.failed).map((r) => r.id));
    const cases = (runner.study?.cases ?? []).filter((c) => passing.has(c.id));
    this.checkingFixed = true;
    try {
      const reverse = cases.length === 0 ? [] : await runner.analyzeAside(reverseSource, fileName, cases);
      if (!Array.isArray(reverse)) {
        this.problem = `Running the earlier version on the cases passing now: ${reverse.problem}`;
        return;
      }
      const ids = new Set<string>();
      const notes: string[] = [];
      for (const r of reverse) {
        if (r.error !== undefined) notes.push(`case "${r.id}" could not be run in the earlier version (counted as passing there): ${r.error}`);
        else if (r.failed) ids.add(r.id);
      }
      this.#fixed = { source, settings, ids, notes };
    } finally {
      this.checkingFixed = false;
    }
  }
}
