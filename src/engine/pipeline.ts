import type { PipelineDef } from './types.ts';
import { DefinitionError } from './errors.ts';
import { paramNameProblem, paramValueProblem } from './model-params.ts';
import { MAX_NAME_LENGTH } from './limits.ts';

/**
 * Largest number of steps. Coalitions are numbers up to 52 steps and bigints above
 * (coalition.ts); the cap bounds what grows with n^2 (the paired stop tests, interaction pairs).
 */
export const MAX_PLAYERS = 256;

declare const VALIDATED: unique symbol;

/**
 * A definition that passed validatePipeline: the engine's analyses take only this, so the rules
 * run once, when a definition is compiled, and never again per case.
 */
export type ValidPipeline = PipelineDef & { readonly [VALIDATED]: true };

type Fields = Readonly<Record<string, unknown>>;

/** A plain object (not null, not an array): the only kind that may stand for a definition, step or fix. */
function isRecord(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The one rule set of a definition's structure (docs/formats.md, "Pipeline definitions"), checked
 * before anything runs: names, inputs in order, fixes, costs, metric, threshold, range, models.
 * Inputs that are not earlier steps are taken as case inputs, so a reference to a later step (a
 * forward reference or a cycle) is an error here. Messages name the field's place (the sandbox adds
 * the file name). Returns the same definition, marked as validated.
 *
 * It reads each field once and only applies typeof and Array.isArray to values of the wrong kind,
 * so the sandbox may hand it a definition copied out of user code without further checks.
 */
export function validatePipeline(def: PipelineDef): ValidPipeline;
export function validatePipeline(def: unknown): ValidPipeline;
export function validatePipeline(def: unknown): ValidPipeline {
  // What each field is comes first, for every step; how the steps relate (order, duplicates, at
  // least one fix) after, so a missing metric is reported before a step without fixes.
  if (!isRecord(def)) throw new DefinitionError('export default must be an object { name, steps, metric }');
  checkName(def.name, 'name');
  const steps = def.steps;
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new DefinitionError('steps must be a non-empty array of { name, inputs, cost, run, fixes }');
  }
  if (steps.length > MAX_PLAYERS) throw new DefinitionError(`the pipeline has ${steps.length} steps; at most ${MAX_PLAYERS} are supported`);
  const shaped = steps.map((step: unknown, index: number) => checkStepFields(step, index));
  if (typeof def.metric !== 'function') throw new DefinitionError('metric must be a function (outputs, inputs) => number');
  const threshold = def.threshold;
  if (threshold !== undefined && !(typeof threshold === 'number' && Number.isFinite(threshold))) {
    throw new DefinitionError('threshold must be a finite number');
  }
  const range = def.range;
  if (range !== undefined) {
    if (
      !Array.isArray(range) || range.length !== 2 || !range.every((x: unknown) => typeof x === 'number' && Number.isFinite(x)) ||
      !(range[0] < range[1])
    ) {
      throw new DefinitionError('range must be [low, high] with finite low < high');
    }
  }
  if (def.models !== undefined) checkModels(def.models);
  if (def.modelParams !== undefined) checkModelParams(def.modelParams);
  checkStepOrder(shaped);
  return def as unknown as ValidPipeline;
}

/** The fields of a step that passed checkStepFields, as the order checks read them. */
interface ShapedStep {
  readonly name: string;
  readonly inputs: readonly string[];
  readonly fixNames: readonly string[];
}

/** One step's fields and its fixes' fields. Labels name the step once it has a usable name, else its index. */
function checkStepFields(step: unknown, index: number): ShapedStep {
  if (!isRecord(step)) throw new DefinitionError(`steps[${index}] must be an object { name, inputs, cost, run, fixes }`);
  const name = checkName(step.name, `steps[${index}]: name`);
  const label = `step "${name}"`;
  const inputs = step.inputs;
  if (!Array.isArray(inputs) || !inputs.every((input: unknown) => typeof input === 'string')) {
    throw new DefinitionError(`${label}: inputs must be an array of names (case inputs or earlier steps)`);
  }
  checkCost(step.cost, label);
  if (typeof step.run !== 'function') throw new DefinitionError(`${label}: run must be a function (inputs, noise, { llm }) => output`);
  const fixes = step.fixes ?? [];
  if (!Array.isArray(fixes)) throw new DefinitionError(`${label}: fixes must be an array of { name, cost, run }`);
  const fixNames = fixes.map((fix: unknown, fixIndex: number) => {
    if (!isRecord(fix)) throw new DefinitionError(`${label}: fixes[${fixIndex}] must be an object { name, cost, run }`);
    const fixName = checkName(fix.name, `${label}: fixes[${fixIndex}]: name`);
    const fixLabel = `${label}: fix "${fixName}"`;
    checkCost(fix.cost, fixLabel);
    if (typeof fix.run !== 'function') throw new DefinitionError(`${fixLabel}: run must be a function (inputs, noise, { llm }) => output`);
    return fixName;
  });
  return { name, inputs: inputs as string[], fixNames };
}

/**
 * How the steps relate: unique names, inputs that are case inputs or earlier steps (each once),
 * at least one fix per step with unique names.
 */
function checkStepOrder(steps: readonly ShapedStep[]): void {
  // Where each step name first appears, to tell a later step from a case input.
  const firstIndex = new Map<string, number>();
  steps.forEach((step, index) => {
    if (!firstIndex.has(step.name)) firstIndex.set(step.name, index);
  });
  const seen = new Set<string>();
  steps.forEach(({ name, inputs, fixNames }, index) => {
    const label = `step "${name}"`;
    if (seen.has(name)) throw new DefinitionError(`${label} is defined twice (step names must be unique)`);
    seen.add(name);
    for (const input of inputs) {
      if (input === '') throw new DefinitionError(`${label}: every input must be a non-empty name`);
      if (input === name) throw new DefinitionError(`${label} takes its own output as an input (a cycle)`);
      const at = firstIndex.get(input);
      if (at !== undefined && at > index) {
        throw new DefinitionError(`${label} takes input "${input}", a later step (steps may only read earlier steps: a forward reference or a cycle)`);
      }
    }
    if (new Set(inputs).size !== inputs.length) throw new DefinitionError(`${label} lists an input twice`);
    if (fixNames.length === 0) throw new DefinitionError(`${label} has no fixes (each step needs at least one fix)`);
    const duplicate = fixNames.find((fixName, at) => fixNames.indexOf(fixName) !== at);
    if (duplicate !== undefined) throw new DefinitionError(`${label} has two fixes named "${duplicate}"`);
  });
}

/** Control characters: NUL, escape codes, CR and the C1 range (they would reach terminals and noise addresses). */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A name of the pipeline, a step or a fix: a non-empty string of at most MAX_NAME_LENGTH
 * characters without control characters. Names are printed (a terminal would obey an escape
 * code) and step names address noise draws, joined to their keys by NUL: a NUL inside a name
 * could give two steps the same draws.
 */
function checkName(value: unknown, label: string): string {
  if (typeof value !== 'string' || value === '') throw new DefinitionError(`${label} must be a non-empty string`);
  if (value.length > MAX_NAME_LENGTH) throw new DefinitionError(`${label} is ${value.length} characters long (at most ${MAX_NAME_LENGTH})`);
  const control = CONTROL_CHARACTER.exec(value);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).padStart(4, '0');
    throw new DefinitionError(`${label} ${JSON.stringify(value)} contains the control character U+${code.toUpperCase()} (names are printed and address noise draws)`);
  }
  return value;
}

/** What one run of a step or fix costs: missing is its own error, so the message says what to add. */
function checkCost(cost: unknown, label: string): void {
  if (cost === undefined) throw new DefinitionError(`${label}: cost is missing (a non-negative number: what one run of it costs)`);
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
    throw new DefinitionError(`${label}: cost must be a non-negative number`);
  }
}

/** `models: { alias: "model id" }`: the ids the definition's llm calls use by default. */
function checkModels(models: unknown): void {
  if (!isRecord(models)) throw new DefinitionError('models must be an object { alias: "model id" }');
  for (const [alias, id] of Object.entries(models)) {
    if (typeof id !== 'string' || id.trim() === '') throw new DefinitionError(`models.${alias} must be a non-empty model id`);
  }
}

/** `modelParams: { alias: { name: value } }`: extra endpoint parameters (plain data, copied at the sandbox's edge). */
function checkModelParams(params: unknown): void {
  if (!isRecord(params)) throw new DefinitionError('modelParams must be an object { alias: { parameter: value } }');
  for (const [alias, set] of Object.entries(params)) {
    if (!isRecord(set)) throw new DefinitionError(`modelParams.${alias} must be an object { parameter: value }`);
    for (const name of Object.keys(set)) {
      const problem = paramNameProblem(name) ?? paramValueProblem(name, set[name]);
      if (problem) throw new DefinitionError(`modelParams.${alias}.${name}: ${problem}`);
    }
  }
}

/** Names a step reads that are not steps: the case inputs it needs. */
export function caseInputNames(def: PipelineDef): string[] {
  const steps = new Set(def.steps.map((s) => s.name));
  const names = new Set<string>();
  for (const s of def.steps) for (const i of s.inputs) if (!steps.has(i)) names.add(i);
  return [...names];
}
