/**
 * The open study's pipeline definition, compiled in the analysis pool: when a study opens (or the
 * outcome of compiling it just now is taken), and an edit before it replaces a working definition
 * (an edit that cannot be used leaves the definition as it was and says why). Part of the
 * AnalysisRunner, which decides what each outcome does to the study and the view.
 */
import type { DefinitionProblem, DefinitionSummary, LoadOutcome } from '../../pool/page/protocol.ts';
import { definitionFileName, type Study } from '../importing/study.ts';

export type DefinitionState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'ready'; summary: DefinitionSummary }
  | { status: 'error'; problem: DefinitionProblem };

/** Compiles a definition's source in the analysis pool. */
export type Compile = (source: string, fileName: string) => Promise<LoadOutcome>;

export class DefinitionCompiler {
  definition = $state.raw<DefinitionState>({ status: 'none' });
  /**
   * An edit of the definition that could not be used: the results and the definition stay those of
   * the previous code (the page says so) until an edit compiles.
   */
  editProblem = $state.raw<DefinitionProblem | null>(null);
  readonly #compile: Compile;

  constructor(compile: Compile) {
    this.#compile = compile;
  }

  /** The working definition's summary; null while none compiled. */
  get summary(): DefinitionSummary | null {
    return this.definition.status === 'ready' ? this.definition.summary : null;
  }

  /**
   * Compiles `study`'s definition, or takes `loaded`. Answers its summary, 'none' (the study has
   * no definition), 'failed' (`definition` says why) or 'superseded': `stillOpen(source)` said the
   * study had moved on by the time it compiled, and `definition` was left as it was.
   */
  async compile(study: Study, stillOpen: (source: string) => boolean, loaded?: LoadOutcome): Promise<DefinitionSummary | 'none' | 'failed' | 'superseded'> {
    const source = study.pipeline?.source;
    if (source === undefined) {
      this.definition = { status: 'none' };
      return 'none';
    }
    this.definition = { status: 'loading' };
    const outcome = loaded ?? (await this.#compile(source, definitionFileName(study)));
    if (!stillOpen(source)) return 'superseded';
    if (!outcome.ok) {
      this.definition = { status: 'error', problem: outcome.problem };
      return 'failed';
    }
    this.definition = { status: 'ready', summary: outcome.summary };
    return outcome.summary;
  }

  /**
   * Compiles an edit of a working definition before it replaces it: the outcome when it compiled;
   * null when it did not (`editProblem` says why) or `stillOpen()` says its study has moved on.
   */
  async compileEdit(edited: Study, source: string, stillOpen: () => boolean): Promise<LoadOutcome | null> {
    const outcome = await this.#compile(source, definitionFileName(edited));
    if (!stillOpen()) return null;
    if (!outcome.ok) {
      this.editProblem = outcome.problem;
      return null;
    }
    return outcome;
  }

  /** No definition (the study closed). */
  clear(): void {
    this.definition = { status: 'none' };
    this.editProblem = null;
  }
}

/** The study as its compiled definition completes it: the definition's own name, and its own cases when the study has none. */
export function studyCompletedBy(study: Study, summary: DefinitionSummary): Study {
  let completed = study;
  if (completed.pipeline && completed.pipeline.name !== summary.name) completed = { ...completed, pipeline: { ...completed.pipeline, name: summary.name } };
  // A definition opened on its own brings its own cases.
  if (completed.cases.length === 0 && completed.games.length === 0 && summary.cases.length > 0) completed = { ...completed, cases: summary.cases };
  return completed;
}
