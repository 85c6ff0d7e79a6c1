import { analyzeCaseRound, type CaseRound, type ModelAnswer, type ValidPipeline, type WaitingResolver } from '../engine/index.ts';
import { summarizeDefinition, type DefinitionSummary } from '../engine/definition-summary.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../engine/types.ts';
import { preparePipeline, type InstantiateOptions, type PreparedPipeline } from './compile.ts';
import { errorResult } from '../engine/case-result.ts';
import { boundKeptOutputs } from '../engine/kept-outputs.ts';
import { PlainDataError, sealPlain } from './plain-data.ts';
import { copyCaseDefs } from './case-defs.ts';
import { jsonCaseList } from './json-case-list.ts';
import { rejectSesRejectedText } from './prepare-source.ts';
import { withoutListedCases } from './without-listed-cases.ts';
import { SharedStepCache } from '../engine/shared-step-cache.ts';

export interface SandboxHooks {
  /** Before every step execution (from the engine), e.g. for a watchdog that names the step. */
  onStepStart?(stepIndex: number): void;
  /** Before every metric call. */
  onMetricStart?(): void;
  /** Before the case's inputs are copied into the sandbox (huge inputs take a while). */
  onInputsStart?(): void;
}

/**
 * Parsed definitions by source text, then file name (a worker sees few; the cap bounds memory).
 * The source itself is the key: a key built per call (name + source) is a new string each time,
 * and hashing it cost as much as the whole source per case, quadratic for a definition listing
 * thousands of its own cases.
 */
const prepared = new Map<string, Map<string, PreparedPipeline>>();
const PREPARED_CACHE_LIMIT = 16;

/**
 * A fresh, validated instance of a definition. Parsing is memoised by source text; every call
 * re-runs the definition's top level, so no state carries over between cases (results do not
 * depend on how cases are spread over workers). Throws DefinitionError naming file and step.
 */
export function compileChecked(source: string, fileName = 'pipeline.js', options: InstantiateOptions = {}): ValidPipeline {
  return preparedFor(source, fileName).instantiate(options);
}

/** The memoised parse of a definition (see `prepared`). Throws DefinitionError. */
function preparedFor(source: string, fileName: string): PreparedPipeline {
  let byName = prepared.get(source);
  if (byName === undefined) {
    if (prepared.size >= PREPARED_CACHE_LIMIT) prepared.delete(prepared.keys().next().value!);
    byName = new Map();
    prepared.set(source, byName);
  }
  let entry = byName.get(fileName);
  if (entry === undefined) {
    entry = preparePipeline(source, fileName);
    if (byName.size >= PREPARED_CACHE_LIMIT) byName.delete(byName.keys().next().value!);
    byName.set(fileName, entry);
  }
  return entry;
}

/** The definition's structure and its own cases, as plain data. Throws DefinitionError. */
export function describeSource(source: string, fileName = 'pipeline.js'): DefinitionSummary {
  return describeForAnalysis(source, fileName).summary;
}

/**
 * describeSource, plus the text the pool's workers should analyse cases with: the definition
 * without its inline case list (the same text when it has none; see withoutListedCases), so a
 * worker never parses or checks a case list it has no use for. Throws DefinitionError.
 */
export function describeForAnalysis(source: string, fileName = 'pipeline.js'): { summary: DefinitionSummary; analysisSource: string } {
  const json = jsonCaseList(source);
  if (json !== null) {
    // The definition is parsed and run without the list, which JSON.parse reads (see jsonCaseList).
    const analysisSource = withoutListedCases(source, json.range);
    let prepared: PreparedPipeline | null = null;
    try {
      prepared = preparedFor(analysisSource, fileName);
      // What the sandbox refuses anywhere in a file, it refuses in the list too.
      rejectSesRejectedText(source, prepared.fileName);
    } catch {
      // Not parsed: the whole text, read the ordinary way below, gives the error where the user wrote it.
      prepared = null;
    }
    if (prepared?.listedCases?.start === json.range.start) {
      const definition = prepared.instantiate({ cases: 'skip' });
      definition.cases = copyCaseDefs(json.list, prepared.fileName);
      return { summary: summarizeDefinition(definition), analysisSource };
    }
  }
  return { summary: summarizeDefinition(compileChecked(source, fileName)), analysisSource: preparedFor(source, fileName).analysisSource };
}

export interface AnalysisOptions {
  /**
   * The pool described this definition already (which checked its own cases): the definition's
   * cases are then never read here, not even on a worker's first instance of it.
   */
  casesDescribed?: boolean;
  /** Answers a model request while the round waits (engine ModelContext), instead of suspending. */
  resolveWaiting?: WaitingResolver;
}

/**
 * Analyse one case of a definition given as source text (engine analyzeCase in the sandbox).
 * A step or metric that throws gives a CaseResult with `error` naming case and step; a bad
 * definition throws DefinitionError. A step that calls a model with no answer in `answers` makes
 * this a `pending` round (see analyzeCaseRound): the caller fetches the requests and calls again.
 */
export function analyzeSourceCaseRound(
  source: string,
  caseDef: CaseDef,
  settings: AnalysisSettings,
  answers: ReadonlyMap<string, ModelAnswer>,
  hooks: SandboxHooks = {},
  fileName = 'pipeline.js',
  options: AnalysisOptions = {},
): CaseRound {
  // The definition's own cases are not needed here (they are checked on its first instance, or
  // were checked where the pool described it).
  const def = compileChecked(source, fileName, { cases: options.casesDescribed === true ? 'skip' : false });
  const onMetricStart = hooks.onMetricStart;
  const pipeline: ValidPipeline = onMetricStart
    ? {
        ...def,
        metric: (outputs, inputs) => {
          onMetricStart();
          return def.metric(outputs, inputs);
        },
      }
    : def;
  // The metric receives the case's inputs as they are: hand the engine a sealed copy up front.
  let inputs: CaseDef['inputs'];
  hooks.onInputsStart?.();
  try {
    inputs = sealPlain(caseDef.inputs ?? {}, 'inputs') as CaseDef['inputs'];
  } catch (error) {
    if (!(error instanceof PlainDataError)) throw error;
    const players = def.steps.map((step) => step.name);
    return { kind: 'result', result: errorResult(caseDef.id, players, settings, `case "${caseDef.id}": ${error.message}`), usedResponses: [] };
  }
  const sealedCase: CaseDef = { ...caseDef, inputs };
  const shared = settings.shareSteps === true ? sharedStepsOf(source, fileName) : undefined;
  const round = analyzeCaseRound(pipeline, sealedCase, settings, answers, { onStepStart: hooks.onStepStart, ...(shared && { shared }) }, options.resolveWaiting ?? null);
  // Results leave the worker: huge step outputs are not copied to (or kept by) the host.
  return round.kind === 'result' ? { ...round, result: boundKeptOutputs(round.result) } : round;
}

const NO_ANSWERS: ReadonlyMap<string, ModelAnswer> = new Map();

/**
 * Step runs shared across the cases this worker analyses, by definition (source text, then file
 * name), for the shareSteps setting; bounded like the parsed definitions. Each worker has its own,
 * so how much is shared depends on which worker ran which case (never the values).
 */
const sharedSteps = new Map<string, Map<string, SharedStepCache>>();

function sharedStepsOf(source: string, fileName: string): SharedStepCache {
  let byName = sharedSteps.get(source);
  if (byName === undefined) {
    if (sharedSteps.size >= PREPARED_CACHE_LIMIT) sharedSteps.delete(sharedSteps.keys().next().value!);
    sharedSteps.set(source, (byName = new Map()));
  }
  let cache = byName.get(fileName);
  if (cache === undefined) {
    if (byName.size >= PREPARED_CACHE_LIMIT) byName.delete(byName.keys().next().value!);
    byName.set(fileName, (cache = new SharedStepCache()));
  }
  return cache;
}

/** Forget the step runs shared so far (a study run starts afresh, so its cost does not depend on earlier runs in this thread). */
export function clearSharedSteps(): void {
  sharedSteps.clear();
}

/** analyzeSourceCaseRound for a definition without model steps (a model call is a per-case error). */
export function analyzeSourceCase(
  source: string,
  caseDef: CaseDef,
  settings: AnalysisSettings,
  hooks: SandboxHooks = {},
  fileName = 'pipeline.js',
): CaseResult {
  const round = analyzeSourceCaseRound(source, caseDef, settings, NO_ANSWERS, hooks, fileName);
  if (round.kind === 'result') return round.result;
  const def = compileChecked(source, fileName, { cases: false });
  const step = round.requests[0].step;
  return errorResult(caseDef.id, def.steps.map((s) => s.name), settings, `case "${caseDef.id}": step "${step}" calls a model (llm.chat or llm.choose), but no model host answers requests here`);
}
