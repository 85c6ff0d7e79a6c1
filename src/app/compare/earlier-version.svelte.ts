/**
 * "Compare with an earlier version" (docs/ci.md, "In the page"): the regression game of the open
 * definition against an earlier one (a .js file, or a stored session's definition), built in the
 * analysis pool's sandbox, opened as a new study of the open study's cases, and read as the
 * command reads it: which failures are new, and which change caused them (the same engine functions,
 * so the same numbers and the same sentences).
 */
import { regressionSummary, type RegressionSummary } from '../../engine/regression/summary.ts';
import { changeSentences } from '../../engine/regression/verdict.ts';
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

  /**
   * The regression read off the game's finished results. The cases the change fixed (passing now,
   * failing before) need the earlier version run on the passing cases, which the command does
   * (`--against`); here none is counted, so the failure rate is not judged.
   */
  summary: RegressionSummary | null = $derived.by(() => {
    const game = this.game;
    const definition = this.#runner.definition;
    if (game === null || definition.status !== 'ready' || this.#runner.batch === null) return null;
    const { threshold, range } = definition.summary;
    return regressionSummary(this.#runner.finishedResults(), new Set(), game.steps, {
      delta: this.#runner.settings.delta,
      bound: this.#runner.batchBound,
      range: [range?.[0] ?? 0, range?.[1] ?? 1],
      threshold: threshold ?? 1,
    });
  });

  /** "the "retriever" change causes 67 % of the new failures; reverting it alone fixes 100 %", largest first. */
  sentences: string[] = $derived(this.summary ? changeSentences(this.summary.rises, (name) => `"${name}"`) : []);

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
    await this.#open({ fileName: name, name, pipeline: { name, source: outcome.source }, definitionFile: `${after.fileName} against ${before.fileName}`, cases: study.cases, games: [] });
  }
}
