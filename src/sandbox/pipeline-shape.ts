import type { Noise, PipelineDef, StepDef, StepInputs, StepRun, StepTools, VariantDef } from '../engine/types.ts';
import { copyCaseDefs } from './case-defs.ts';
import { DefinitionError } from './definition-error.ts';
import { describeThrown } from './explain-error.ts';
import type { LlmGate } from './llm-gate.ts';
import type { NoiseGate } from './noise-gate.ts';
import { PlainDataError, sealPlain, sealRecord } from './plain-data.ts';
import { MAX_NAME_LENGTH } from '../engine/limits.ts';

/** What the wrappers need to call user code safely. */
export interface CallContext {
  gate: NoiseGate;
  /** Routes the `llm` facade (third argument of every run) to the engine's Llm of the call in progress. */
  llmGate: LlmGate;
  /** Turns a stack into the user's `file:line:column`, if it names the file. */
  locate(stack: string): string | undefined;
}

/**
 * Check the object a definition exported against docs/formats.md ("Pipeline definitions") and build the engine's PipelineDef
 * from it. Every user property is read exactly once, here, so later getters or mutations in user
 * code cannot change the pipeline; every user function is wrapped (see wrapRun, wrapMetric).
 * `skipCases` leaves `cases` out (see InstantiateOptions.cases).
 */
export function toPipelineDef(exported: unknown, fileName: string, context: CallContext, skipCases = false): PipelineDef {
  // `cases` is read only when wanted: it may be a getter (see prepare-source lazyCases).
  const root = objectAt(exported, `${fileName}: export default`, '{ name, steps, metric }', 'cases');
  const name = checkName(root.name, `${fileName}: name`);

  const steps = root.steps;
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new DefinitionError(`${fileName}: steps must be a non-empty array of { name, inputs, cost, run, fixes }`);
  }
  const stepDefs = Array.from(steps, (step: unknown, index: number) => toStepDef(step, index, fileName, context));

  const metric = root.metric;
  if (typeof metric !== 'function') throw new DefinitionError(`${fileName}: metric must be a function (outputs, inputs) => number`);

  const pipeline: { -readonly [K in keyof PipelineDef]: PipelineDef[K] } = {
    name,
    steps: stepDefs,
    metric: wrapMetric(metric, context),
  };
  const threshold = root.threshold;
  if (threshold !== undefined) {
    if (typeof threshold !== 'number' || !Number.isFinite(threshold)) {
      throw new DefinitionError(`${fileName}: threshold must be a finite number`);
    }
    pipeline.threshold = threshold;
  }
  const range = root.range;
  if (range !== undefined) {
    if (
      !Array.isArray(range) || range.length !== 2 || typeof range[0] !== 'number' || typeof range[1] !== 'number' ||
      !Number.isFinite(range[0]) || !Number.isFinite(range[1]) || !(range[0] < range[1])
    ) {
      throw new DefinitionError(`${fileName}: range must be [low, high] with finite low < high`);
    }
    pipeline.range = [range[0], range[1]];
  }
  const models = root.models;
  if (models !== undefined) pipeline.models = checkModels(models, fileName);
  // Skipped (left undefined) only when an earlier instance of the same source checked them.
  if (!skipCases) pipeline.cases = copyCaseDefs(root.cases, fileName);
  return pipeline;
}

function toStepDef(value: unknown, index: number, fileName: string, context: CallContext): StepDef {
  const step = objectAt(value, `${fileName}: steps[${index}]`, '{ name, inputs, cost, run, fixes }');
  const name = checkName(step.name, `${fileName}: steps[${index}]: name`);
  const label = `${fileName}: step "${name}"`;

  const inputs = step.inputs;
  if (!Array.isArray(inputs) || !inputs.every((input) => typeof input === 'string')) {
    throw new DefinitionError(`${label}: inputs must be an array of names (case inputs or earlier steps)`);
  }
  const cost = checkCost(step.cost, label);
  const run = step.run;
  if (typeof run !== 'function') throw new DefinitionError(`${label}: run must be a function (inputs, noise, { llm }) => output`);

  const fixes = step.fixes ?? [];
  if (!Array.isArray(fixes)) throw new DefinitionError(`${label}: fixes must be an array of { name, cost, run }`);
  const fixDefs = Array.from(fixes, (fix: unknown, fixIndex: number): VariantDef => {
    const entry = objectAt(fix, `${label}: fixes[${fixIndex}]`, '{ name, cost, run }');
    const fixName = checkName(entry.name, `${label}: fixes[${fixIndex}]: name`);
    const fixLabel = `${label}: fix "${fixName}"`;
    const fixRun = entry.run;
    if (typeof fixRun !== 'function') throw new DefinitionError(`${fixLabel}: run must be a function (inputs, noise, { llm }) => output`);
    return { name: fixName, cost: checkCost(entry.cost, fixLabel), run: wrapRun(fixRun, context) };
  });

  return { name, inputs: [...inputs], cost, run: wrapRun(run, context), fixes: fixDefs };
}

/** `models: { alias: "model id" }`: the ids the definition's llm calls use by default. */
function checkModels(value: unknown, fileName: string): Record<string, string> {
  const record = objectAt(value, `${fileName}: models`, '{ alias: "model id" }');
  const out: Record<string, string> = {};
  for (const [alias, id] of Object.entries(record)) {
    if (typeof id !== 'string' || id.trim() === '') throw new DefinitionError(`${fileName}: models.${alias} must be a non-empty model id`);
    Object.defineProperty(out, alias, { value: id, enumerable: true, writable: true, configurable: true });
  }
  return out;
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

function checkCost(cost: unknown, label: string): number {
  if (cost === undefined) throw new DefinitionError(`${label}: cost is missing (a non-negative number: what one run of it costs)`);
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
    throw new DefinitionError(`${label}: cost must be a non-negative number`);
  }
  return cost;
}

/** A user object, read once into a plain record of its own enumerable properties. */
function objectAt(value: unknown, label: string, shape: string, lazyKey?: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new DefinitionError(`${label} must be an object ${shape}`);
  }
  const record: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === lazyKey) {
      // Read on first use only, once.
      let read = false;
      let cached: unknown;
      Object.defineProperty(record, key, {
        enumerable: true,
        get: () => {
          if (!read) {
            cached = (value as Record<string, unknown>)[key];
            read = true;
          }
          return cached;
        },
      });
    } else record[key] = (value as Record<string, unknown>)[key];
  }
  return record;
}

/** Thrown by a wrapped run or metric; the engine adds the step and case to the message. */
export class UserCodeError extends Error {
  override name = 'UserCodeError';
}

/**
 * A step or fix run as the engine calls it. User code receives frozen plain copies of its inputs
 * and the noise facade (never the engine's objects), and its output is copied out as frozen plain
 * data, so it cannot later change what the engine cached.
 */
function wrapRun(run: Function, context: CallContext): StepRun {
  return (inputs: StepInputs, noise: Noise, tools?: StepTools): unknown => {
    const userInputs = sealRecord(inputs, 'input');
    const previous = context.gate.enter(noise);
    const previousLlm = context.llmGate.enter(tools?.llm);
    let output: unknown;
    try {
      output = Reflect.apply(run, undefined, [userInputs, context.gate.facade, context.llmGate.tools]);
    } catch (error) {
      throw new UserCodeError(describeThrown(error, context.locate));
    } finally {
      context.gate.exit(previous);
      context.llmGate.exit(previousLlm);
    }
    try {
      return sealPlain(output, 'output');
    } catch (error) {
      if (error instanceof PlainDataError) throw new UserCodeError(`its output is not plain data: ${error.message}`);
      throw new UserCodeError(describeThrown(error, context.locate));
    }
  };
}

/** The metric, called with frozen plain copies; the engine checks that it returns a finite number. */
function wrapMetric(metric: Function, context: CallContext): PipelineDef['metric'] {
  return (outputs, inputs) => {
    const userOutputs = sealRecord(outputs, 'output');
    const userInputs = sealRecord(inputs, 'input');
    try {
      return Reflect.apply(metric, undefined, [userOutputs, userInputs]);
    } catch (error) {
      throw new UserCodeError(describeThrown(error, context.locate));
    }
  };
}
