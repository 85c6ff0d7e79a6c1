import { analyzeCaseRound, factualRun, ModelContext, StepSuspended, type ModelAnswer } from '../engine/index.ts';
import type { ChatRequest, ModelResponse, PendingRequest } from '../engine/model-call.ts';
import type { AnalysisSettings, CaseDef, PipelineDef } from '../engine/types.ts';
import type { ValidPipeline } from '../engine/pipeline.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { serializeTrace, TRACE_FORMAT, TRACE_VERSION, type TraceFile } from '../formats/index.ts';
import { compilePipeline } from '../sandbox/compile.ts';

/** Answers model requests while a demo is built (the deterministic test model, for model-step demos). */
export type DemoModel = (request: ChatRequest) => ModelResponse;

/** Responses a demo's model steps asked for, by key (filled while building, shipped beside the trace). */
export type DemoResponses = Map<string, { request: ChatRequest; response: ModelResponse }>;

const noModel: DemoModel = () => {
  throw new Error('this demo calls a model: build it with a test model');
};

/**
 * Record one case's factual run: its outputs, score and every categorical choice it made (which
 * posterior mode abducts from). The case's own seed is the recorded world. Model steps are
 * answered by `model`, in rounds, as the analysis host would; their responses go to `responses`.
 */
export function recordCase(def: PipelineDef, c: CaseDef, model: DemoModel = noModel, responses: DemoResponses = new Map()): CaseDef {
  const answers = answersOf(responses);
  for (;;) {
    const context = new ModelContext(answers, def.models ?? {});
    try {
      const run = factualRun(def, c, { model: context });
      return { id: c.id, inputs: c.inputs, ...(c.seed === undefined ? {} : { seed: c.seed }), observed: run.observed, outputs: run.outputs, score: run.score };
    } catch (error) {
      if (!(error instanceof StepSuspended)) throw error;
      answerPending(context.pending.values(), model, responses, answers);
    }
  }
}

function answersOf(responses: DemoResponses): Map<string, ModelAnswer> {
  return new Map([...responses].map(([key, entry]) => [key, entry.response]));
}

function answerPending(pendings: Iterable<PendingRequest>, model: DemoModel, responses: DemoResponses, answers: Map<string, ModelAnswer>): void {
  for (const pending of pendings) {
    const response = model(pending.request);
    responses.set(pending.key, { request: pending.request, response });
    answers.set(pending.key, response);
  }
}

/**
 * The settings a demo's shipped responses cover: recorded, and posterior and prior with the default
 * number of worlds, each with every step's default fix (other settings may need new requests).
 */
export const DEMO_RESPONSE_SETTINGS: readonly AnalysisSettings[] = (['recorded', 'posterior', 'prior'] as const).map((mode) => ({ ...DEFAULT_SETTINGS, mode }));

/** Analyse every case under `settings` with the test model, collecting the responses used. */
function collectResponses(def: ValidPipeline, cases: readonly CaseDef[], model: DemoModel, responses: DemoResponses): void {
  for (const settings of DEMO_RESPONSE_SETTINGS) {
    for (const c of cases) {
      const answers = answersOf(responses);
      for (;;) {
        const round = analyzeCaseRound(def, c, settings, answers);
        if (round.kind === 'result') break;
        answerPending(round.requests, model, responses, answers);
      }
    }
  }
}

/**
 * The trace of a demo definition: the definition compiled in the sandbox, each of its `cases` run
 * as recorded, and the source embedded as `pipeline.source`. With a model, also the responses
 * its analyses need (see DEMO_RESPONSE_SETTINGS).
 */
export function buildDemoTrace(source: string, fileName: string, model?: DemoModel): { trace: TraceFile; responses: DemoResponses } {
  const def = compilePipeline(source, fileName);
  if (!def.cases || def.cases.length === 0) throw new Error(`${fileName}: a demo definition must list its cases`);
  const responses: DemoResponses = new Map();
  const cases = def.cases.map((c) => recordCase(def, c, model, responses));
  if (model) collectResponses(def, cases, model, responses);
  return { trace: { format: TRACE_FORMAT, version: TRACE_VERSION, pipeline: { name: def.name, source }, cases }, responses };
}

/** The exact text of a demo's trace file. */
export function demoTraceText(source: string, fileName: string, model?: DemoModel): string {
  return serializeTrace(buildDemoTrace(source, fileName, model).trace);
}

/** The demo's responses as a response-cache file (JSONL, one { key, request, response } a line, by key). */
export function demoResponsesText(responses: DemoResponses): string {
  return [...responses.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, { request, response }]) => `${JSON.stringify({ key, request, response })}\n`)
    .join('');
}
