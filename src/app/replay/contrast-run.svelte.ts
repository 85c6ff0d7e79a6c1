/**
 * The single-step contrast and point of commitment of a replayed run, in the page (the command's
 * `--contrast N`): the contrast replays of the replay definition (src/replay/contrast.ts, N per
 * arm, one-step definitions with nothing to split) analysed by an injected analysis (the page's
 * pool and model host), then reported per model turn. A finished contrast is handed to `keep`
 * (the launcher stores it with the study, so its session keeps it).
 */
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import type { PageModelJob } from '../model/page-model-host.svelte.ts';
import { contrastReport, contrastStudy, type ContrastReport, type ReplayDefinition } from '../../replay/index.ts';
import { pageWords } from '../model/page-words.ts';

/** Analyses the cases of a definition and resolves their results (in any order); rejects when cancelled. */
export type AnalyseCases = (job: { source: string; name: string; cases: CaseDef[]; settings: AnalysisSettings }, signal: AbortSignal, onResult: (done: number) => void) => Promise<CaseResult[]>;

export type ContrastState =
  | { status: 'idle' }
  | { status: 'running'; done: number; total: number }
  /** `firstError`: what the first replay that ended in an error said (in the page's words), when any did. */
  | { status: 'done'; n: number; report: ContrastReport; firstError?: string }
  | { status: 'error'; message: string };

export class ContrastRun {
  state = $state.raw<ContrastState>({ status: 'idle' });
  /** The run (case id) it is for. */
  runId = $state<string | null>(null);
  /** The model host of the replays running (or last run), set by the analysis: its requests, and the ask-before pause. */
  job = $state.raw<PageModelJob | null>(null);
  readonly #analyse: AnalyseCases;
  #abort: AbortController | null = null;

  readonly #keep: ((run: string, n: number, report: ContrastReport) => void) | undefined;

  constructor(analyse: AnalyseCases, keep?: (run: string, n: number, report: ContrastReport) => void) {
    this.#analyse = analyse;
    this.#keep = keep;
  }

  /** Runs N contrast replays per arm for the definition's first run, with the study's settings (recorded mode, exact). */
  async run(definition: ReplayDefinition, n: number, settings: AnalysisSettings): Promise<void> {
    this.cancel();
    const plan = definition.runs[0];
    if (!Number.isInteger(n) || n < 1 || n > 1000) {
      this.state = { status: 'error', message: `Replays per arm: a whole number from 1 to 1000, got ${n}.` };
      return;
    }
    const abort = new AbortController();
    this.#abort = abort;
    this.runId = plan.id;
    const study = contrastStudy(definition.parts, [plan], n);
    this.state = { status: 'running', done: 0, total: study.cases.length };
    try {
      const results = await this.#analyse(
        { source: study.source, name: `contrast of ${definition.name}`, cases: study.cases, settings: { ...settings, mode: 'recorded', method: 'exact' } },
        abort.signal,
        (done) => {
          if (!abort.signal.aborted) this.state = { status: 'running', done, total: study.cases.length };
        },
      );
      if (abort.signal.aborted) return;
      const report = contrastReport(plan, study, results);
      const firstError = results.find((r) => r.error !== undefined)?.error;
      this.state = { status: 'done', n, report, ...(firstError !== undefined && { firstError: pageWords(firstError) }) };
      this.#keep?.(plan.id, n, report);
    } catch (error) {
      if (!abort.signal.aborted) this.state = { status: 'error', message: pageWords(error instanceof Error ? error.message : String(error)) };
    } finally {
      if (this.#abort === abort) this.#abort = null;
    }
  }

  get running(): boolean {
    return this.state.status === 'running';
  }

  cancel(): void {
    if (!this.#abort) return;
    this.#abort.abort();
    this.#abort = null;
    this.state = { status: 'idle' };
  }
}
