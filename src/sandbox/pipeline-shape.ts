import type { Noise, PipelineDef, StepInputs, StepRun, StepTools } from '../engine/types.ts';
import { describeThrown } from './explain-error.ts';
import type { LlmGate } from './llm-gate.ts';
import type { NoiseGate } from './noise-gate.ts';
import { copyPlainData, PlainDataError, sealGivenRecord, sealPlain, sealRecord } from './plain-data.ts';

/** What the wrappers need to call user code safely. */
export interface CallContext {
  gate: NoiseGate;
  /** Routes the `llm` facade (third argument of every run) to the engine's Llm of the call in progress. */
  llmGate: LlmGate;
  /** Turns a stack into the user's `file:line:column`, if it names the file. */
  locate(stack: string): string | undefined;
}

/** A definition's export, copied: the definition for validatePipeline, and its own cases, read on demand. */
export interface CopiedDefinition {
  readonly definition: unknown;
  /** The exported `cases`, read once on the first call (it may be a getter, see prepare-source lazyCases). */
  readCases(): unknown;
}

/**
 * Copy the object a definition exported into the shape of the engine's PipelineDef, for
 * validatePipeline to check (the rules live there, once). Every user property is read exactly
 * once, here, so later getters or mutations in user code cannot change the pipeline; every user
 * function in a `run` or `metric` slot is wrapped (see wrapRun, wrapMetric). No user object reaches
 * the engine: a value of the wrong kind is replaced by an empty stand-in of its kind, or kept when
 * it is a primitive or a function, which the rules only inspect with typeof.
 */
export function toPipelineDef(exported: unknown, context: CallContext): CopiedDefinition {
  const root = copyRecord(exported, 'cases');
  if (!isRecord(root)) return { definition: root, readCases: () => undefined };
  const copy: Record<string, unknown> = {
    name: root.name,
    steps: mapList(root.steps, (step) => copyStep(step, context)),
    metric: typeof root.metric === 'function' ? wrapMetric(root.metric, context) : root.metric,
  };
  if (root.threshold !== undefined) copy.threshold = root.threshold;
  if (root.range !== undefined) copy.range = mapList(root.range, (bound) => standIn(bound));
  if (root.models !== undefined) copy.models = copyModels(root.models);
  if (root.modelParams !== undefined) copy.modelParams = copyPlainData(root.modelParams, 'modelParams');
  return { definition: copy, readCases: () => root.cases };
}

function copyStep(value: unknown, context: CallContext): unknown {
  const step = copyRecord(value);
  if (!isRecord(step)) return step;
  const copy: Record<string, unknown> = {
    name: step.name,
    inputs: mapList(step.inputs, (input) => standIn(input)),
    cost: step.cost,
    run: wrapIfFunction(step.run, context),
  };
  if (step.fixes !== undefined) copy.fixes = mapList(step.fixes, (fix) => copyFix(fix, context));
  return copy;
}

function copyFix(value: unknown, context: CallContext): unknown {
  const fix = copyRecord(value);
  if (!isRecord(fix)) return fix;
  return { name: fix.name, cost: fix.cost, run: wrapIfFunction(fix.run, context) };
}

/** `models`: alias keys as own data properties (an alias may be named `__proto__`), ids as read. */
function copyModels(value: unknown): unknown {
  const record = copyRecord(value);
  if (!isRecord(record)) return record;
  const out: Record<string, unknown> = {};
  for (const [alias, id] of Object.entries(record)) {
    Object.defineProperty(out, alias, { value: standIn(id), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function wrapIfFunction(run: unknown, context: CallContext): unknown {
  return typeof run === 'function' ? wrapRun(run, context) : run;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A user value the rules only look at with typeof: primitives and functions as they are, an array
 * or object as an empty one of its kind (so the message is the same and no user object escapes).
 */
function standIn(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object') return {};
  return value;
}

/** A user array read once into a fresh array of mapped elements; anything else as its stand-in. */
function mapList(value: unknown, map: (element: unknown) => unknown): unknown {
  return Array.isArray(value) ? Array.from(value, (element: unknown) => map(element)) : standIn(value);
}

/**
 * A user object, read once into a plain record of its own enumerable properties (anything else as
 * its stand-in). `lazyKey` is read on first use only, once.
 */
function copyRecord(value: unknown, lazyKey?: string): unknown {
  if (!isRecord(value)) return standIn(value);
  const record: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === lazyKey) {
      let read = false;
      let cached: unknown;
      Object.defineProperty(record, key, {
        enumerable: true,
        get: () => {
          if (!read) {
            cached = value[key];
            read = true;
          }
          return cached;
        },
      });
    } else record[key] = value[key];
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
    const userInputs = sealGivenRecord(inputs as Record<string, unknown>, 'input');
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
    const userOutputs = sealGivenRecord(outputs as Record<string, unknown>, 'output');
    const userInputs = sealRecord(inputs, 'input');
    try {
      return Reflect.apply(metric, undefined, [userOutputs, userInputs]);
    } catch (error) {
      throw new UserCodeError(describeThrown(error, context.locate));
    }
  };
}
