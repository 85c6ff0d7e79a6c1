import type { EstimatorName } from './shapley/estimator-names.ts';
import type { Coalition } from './coalition.ts';
import type { BudgetSkippedPart, ResultFieldName, ResultFieldOn, ResultFieldTable } from './result-fields.ts';

export type { EstimatorName };

/**
 * The engine's public types. Everything here is plain data or pure functions so the same
 * objects move between Node, Web Workers and tests (structured-clone safe where marked).
 */

/** Addressed random draws for one step in one world (docs/method.md, "Noise and replay"). */
export interface Noise {
  /** Uniform in the open interval (0, 1). */
  uniform(key?: string): number;
  /** Standard normal. */
  normal(key?: string): number;
  /** Standard Gumbel addressed by (key, option). */
  gumbel(key: string, option: string): number;
  /** Gumbel-max sample: the option with the largest logit + Gumbel. */
  categorical(logits: Readonly<Record<string, number>>, key?: string): string;
  bernoulli(p: number, key?: string): boolean;
  /** Uniform integer in [0, n). */
  int(n: number, key?: string): number;
  choice<T>(items: readonly T[], key?: string): T;
}

export type StepInputs = Readonly<Record<string, unknown>>;

/** A tool call an assistant message made, as OpenAI's chat API writes it (arguments: JSON text). */
export interface LlmToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * A chat message of a model step (docs/model-steps.md, "The two calls"), in OpenAI's shape: an
 * assistant message may carry the `tool_calls` it made, a `tool` message the `tool_call_id` it answers.
 */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: LlmToolCall[];
  tool_call_id?: string;
}

export interface LlmChatArgs {
  messages: readonly LlmMessage[];
  /** A model alias of the study's settings (default "default"). */
  model?: string;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: readonly string[];
  /** Draw key: addresses the request's seed (default "default"). */
  key?: string;
  /** Function definitions sent as the request's `tools` (OpenAI's shape, plain data), e.g. a recorded run's. */
  tools?: readonly unknown[];
}

export interface LlmChatResult {
  text: string;
  finish: string;
  usage: { input: number; output: number };
  /** The tool calls of the answer, when the endpoint returned some (`id` when the endpoint gave one). */
  toolCalls?: { id?: string; name: string; arguments: string }[];
}

export interface LlmChooseArgs {
  messages: readonly LlmMessage[];
  /** 1 to 26 distinct option names; the model picks one by its lettered label. */
  options: readonly string[];
  model?: string;
  /** Draw key of the Gumbels, as for noise.categorical (default "default"). */
  key?: string;
}

/**
 * The model capability a step receives as `run(inputs, noise, { llm })`. Synchronous: a call
 * whose response is not known yet suspends the step (the host fetches it and replays).
 */
export interface Llm {
  chat(args: LlmChatArgs): LlmChatResult;
  choose(args: LlmChooseArgs): string;
}

/** What a step receives besides its inputs and noise. */
export interface StepTools {
  readonly llm: Llm;
}

/**
 * A step's code. `inputs` is a fresh record made for this call, which the engine never reads or
 * changes afterwards: the callee may keep or freeze it (the sandbox freezes it and hands it to
 * user code without a copy).
 */
export type StepRun = (inputs: StepInputs, noise: Noise, tools?: StepTools) => unknown;

export interface VariantDef {
  name: string;
  cost: number;
  run: StepRun;
}

export interface StepDef {
  name: string;
  /** Case input names or earlier step names. */
  inputs: readonly string[];
  cost: number;
  run: StepRun;
  /** The first fix is the default fix. */
  fixes: readonly VariantDef[];
}

export interface CaseDef {
  id: string;
  inputs: Readonly<Record<string, unknown>>;
  /** World of the factual run (recorded mode). Defaults to a hash of the id. */
  seed?: number;
  /** Factual choices per step and draw key, for posterior mode. */
  observed?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The recorded factual run, checked against the replay. */
  outputs?: Readonly<Record<string, unknown>>;
  score?: number;
}

export interface PipelineDef {
  name: string;
  steps: readonly StepDef[];
  /** `outputs` is a fresh record made for this call, given away as StepRun's inputs are; `inputs` is the case's own. */
  metric: (outputs: Readonly<Record<string, unknown>>, inputs: Readonly<Record<string, unknown>>) => number;
  /** A case fails when its factual metric is below this (default 1). */
  threshold?: number;
  /** Bounds of the metric, used by the confidence intervals (default [0, 1]). */
  range?: readonly [number, number];
  /** Model ids by alias the definition was written for; the study's `settings.models` override them. */
  models?: Readonly<Record<string, string>>;
  /** Extra endpoint parameters by alias (docs/model-steps.md); the study's `settings.modelParams` override them key by key. */
  modelParams?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  cases?: readonly CaseDef[];
}

import type { BatchBound, Method, Mode, Radius, StopRule } from './setting-choices.ts';
export type { BatchBound, Method, Mode, Radius, StopRule };
/** The analysis settings: one field per entry of the settings schema (settings/schema.ts), typed from it. */
export type { AnalysisSettings } from './settings/schema.ts';

export interface Game {
  readonly players: readonly string[];
  /** v(S). Implementations memoise; repeated calls are free. */
  value(mask: Coalition): number;
  /** Step cost spent so far (0 for table games). */
  cost(): number;
  /** Bounds on v, for interval radii. */
  readonly range: readonly [number, number];
}

/** Injected randomness for estimators: uniform in [0, 1). */
export type Rng = () => number;

export interface ShapleyEstimate {
  values: number[];
  /** Simultaneous intervals (Monte Carlo only). */
  ci?: [number, number][];
  evaluations: number;
  /** v(S) values the estimator asked for, repeats included (evaluations counts distinct ones). */
  queries: number;
  cost: number;
  permutations: number;
  stopReason: 'exact' | StopRule | 'maxPermutations';
  /** Estimates and intervals at each checkpoint (Monte Carlo only). */
  history?: { permutations: number; cost: number; values: number[]; ci: [number, number][] }[];
}

/** Shapley interaction index of one pair of steps (positive: they repair together; negative: substitutes). */
export interface PairInteraction {
  steps: [string, string];
  value: number;
  /** Sampled estimates only: the random orders in which the pair stood next to each other. */
  samples?: number;
  /**
   * Sampled estimates: an anytime-valid interval, simultaneous over all pairs at the analysis's
   * delta. Bounded ones (`bounded`): sure bounds from the coalitions a budget left known.
   */
  ci?: [number, number];
  /**
   * A budget stopped the exact index: `ci` bounds it whatever the coalitions not evaluated are worth
   * (within the metric's range), and `value` is the middle of those bounds (boundedInteractions).
   */
  bounded?: true;
}

/**
 * The TypeScript type of each kind of value a result field holds (result-fields.ts): the result
 * types below are read off that table through this map.
 */
export interface ResultValueTypes {
  caseId: string;
  players: string[];
  method: Method;
  flag: boolean;
  text: string;
  measure: number;
  count: number;
  estimator: EstimatorName;
  perPlayer: Record<string, number>;
  intervalPerPlayer: Record<string, [number, number]>;
  playerList: string[];
  stepOrNull: string | null;
  stopReason: ShapleyEstimate['stopReason'];
  outputs: Record<string, unknown>;
  outputsPerPlayer: Record<string, Record<string, unknown>>;
  notes: string[];
  requestKeys: string[];
  usage: { requests: number; cacheHits: number; inputTokens: number; outputTokens: number };
  coalitions: { fixed: string[]; value: number }[];
  history: NonNullable<ShapleyEstimate['history']>;
  interactions: PairInteraction[];
  repairs: CaseRepair[];
  repairSearch: { success: number; maxSize: number; complete: boolean };
  budgetSkipped: BudgetSkippedPart[];
}
export type { BudgetSkippedPart };

/** `failed` and `error` tell the kinds apart, so each kind states their types itself. */
type ResultTag = 'failed' | 'error';
type FieldNamesOn<On extends ResultFieldOn, Optional extends boolean> = Exclude<
  { [K in ResultFieldName]: ResultFieldTable[K] extends { on: On; optional: Optional } ? K : never }[ResultFieldName],
  ResultTag
>;
type FieldValue<K extends ResultFieldName> = ResultValueTypes[ResultFieldTable[K]['value']];
/** The fields of the table carried by `On`, required or optional as the table says, typed by their kind. */
type FieldsOn<On extends ResultFieldOn> = { [K in FieldNamesOn<On, false>]: FieldValue<K> } & { [K in FieldNamesOn<On, true>]?: FieldValue<K> };

/** What every case result carries, whatever became of the case. */
interface CaseResultCommon extends FieldsOn<'all'> {}

/** Fields only an attributed failure has: absent on the other kinds, so reading them needs no cast. */
type NoAttribution = { [K in FieldNamesOn<'attributed', boolean>]?: undefined };

/** A case that could not be analysed: `error` names the case, the step and the problem. */
export interface ErrorCaseResult extends CaseResultCommon, NoAttribution {
  failed: true;
  error: string;
}

/** A case that meets the threshold as run: nothing to blame. */
export interface PassedCaseResult extends CaseResultCommon, NoAttribution {
  failed: false;
  error?: undefined;
}

/** A failing case with its blame: Shapley values and the baselines beside them. */
export interface AttributedCaseResult extends CaseResultCommon, FieldsOn<'attributed'> {
  failed: true;
  error?: undefined;
}

/** One minimal repair of a case: the fixed steps (pipeline order), v with them fixed, and the fixes' summed cost. */
export interface CaseRepair {
  fixed: string[];
  value: number;
  cost: number;
}

/**
 * One case's analysis, as printed by the headless command and stored in sessions (structured-clone
 * safe): an error, a passed case, or an attributed failure. Its fields, their kinds and whether
 * each may be absent are listed once, in result-fields.ts. Test `error !== undefined` first, then
 * `failed`; the predicates in case-result.ts say it in one word.
 */
export type CaseResult = ErrorCaseResult | PassedCaseResult | AttributedCaseResult;

export interface BatchStep {
  step: string;
  /** Share of the analysed failures that fixing this step alone brings to the threshold, in [0, 1]. */
  fixAloneRate: number;
  /** Mean of v({step}) - v(empty) over the analysed failures, in the metric's units (absent in sessions saved before it was kept). */
  meanFixAlone?: number;
  meanShapley: number;
  ci: [number, number];
  share: number;
  lastTouch: number;
}

export interface BatchResult {
  failures: number;
  analyzed: number;
  /**
   * The analysed failures whose fix-alone baseline is known, when a Monte Carlo budget left it out
   * of some (`notComputed`): `fixAloneRate` and `meanFixAlone` are over these. Absent when all have it.
   */
  fixAloneKnown?: number;
  unfixable: number;
  cost: number;
  steps: BatchStep[];
  /** Set when analysis stopped early because the top step separated. */
  stoppedEarly?: boolean;
  /** Model requests of the batch's cases (model steps): the sum of their `usage`. */
  usage?: { requests: number; cacheHits: number; inputTokens: number; outputTokens: number };
}
