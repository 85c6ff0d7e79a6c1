import { validatePipeline, type ValidPipeline } from '../engine/pipeline.ts';
import { copyCaseDefs } from './case-defs.ts';
import { DefinitionError } from './definition-error.ts';
import { describeThrown } from './explain-error.ts';
import { ensureLockdown } from './lockdown.ts';
import { makeLlmGate } from './llm-gate.ts';
import { makeNoiseGate } from './noise-gate.ts';
import { toPipelineDef, type CopiedDefinition } from './pipeline-shape.ts';
import { DEFAULT_BINDING, prepareSource, type PreparedSource } from './prepare-source.ts';
import { makeSandboxRealm } from './sandbox-realm.ts';
import { originalColumn } from './source-edits.ts';
import { withoutListedCases } from './without-listed-cases.ts';

/**
 * Compile an untrusted pipeline definition (docs/formats.md, "Pipeline definitions") into the
 * engine's validated definition.
 *
 * The source is parsed (syntax errors get the user's line and column), its `export default` is
 * rewritten into a binding, and the result is evaluated in a fresh SES Compartment after
 * lockdown(): no host globals (no fetch, process, require, timers, DOM, storage, console), frozen
 * shared intrinsics, no clock and no Math.random. Every function the definition exports is
 * wrapped so user code only ever sees frozen plain data and a noise facade.
 * Throws DefinitionError with a message naming the file, and the step where there is one.
 */
export function compilePipeline(source: string, fileName = 'pipeline.js'): ValidPipeline {
  return preparePipeline(source, fileName).instantiate();
}

/** A parsed and checked definition that can be evaluated any number of times. */
export interface PreparedPipeline {
  readonly fileName: string;
  /** The source without its inline case list, for workers that analyse given cases (see withoutListedCases). */
  readonly analysisSource: string;
  /** Where the inline case list is in the source (PreparedSource.listedCases). */
  readonly listedCases: { start: number; end: number } | null;
  /**
   * Run the definition's top level again and build a validated definition from what it exports
   * (validatePipeline, the one rule set, runs here: once per instance, never per case). Each
   * instance has its own copy of the definition's top-level state (the compartment's globals are
   * frozen), so one case's calls cannot influence another's: results then do not depend on which
   * worker ran which cases in which order.
   */
  instantiate(options?: InstantiateOptions): ValidPipeline;
  /**
   * The value the definition exports, as its code made it (user objects of the compartment, never
   * handed to the engine): for reading the text of its functions (step-code.ts). Throws
   * DefinitionError as instantiate does.
   */
  evaluateExport(): unknown;
}

export interface InstantiateOptions {
  /**
   * Copy and check the definition's own `cases` (default true). Analysing a case does not need
   * them, and copying a few hundred cases cost more than the case's analysis; the top level runs
   * without clock, randomness or mutable globals, so it exports the same cases every time, and
   * checking them on the first instance of a prepared definition checks them for all: `false`
   * leaves them out of every later instance. `'skip'` never reads them: for a worker whose pool
   * described the same definition elsewhere (which checked them), so no worker reads 300 000
   * cases again only to drop them.
   */
  cases?: boolean | 'skip';
}

/** Parse and rewrite once (the costly part); see compilePipeline. Throws DefinitionError. */
export function preparePipeline(source: string, fileName = 'pipeline.js'): PreparedPipeline {
  if (typeof source !== 'string') throw new DefinitionError(`${fileName}: the definition must be JavaScript source text`);
  ensureLockdown();
  const name = safeFileName(fileName);
  const prepared = prepareSource(source, name);
  const realm = makeSandboxRealm();
  // Everything before the user's first line stays on line 1, so every line keeps its number.
  const head = `(function (${realm.localNames.join(', ')}) { 'use strict'; return function () { `;
  const text = `${head}${prepared.body}\n;return ${DEFAULT_BINDING};\n}; })\n//# sourceURL=${name}\n`;
  const locate = makeLocator(name, head.length, prepared);
  let factory: (...locals: unknown[]) => () => unknown;
  try {
    factory = realm.compartment.evaluate(text);
  } catch (error) {
    throw new DefinitionError(`${name}: evaluating the definition failed: ${describeThrown(error, locate)}`);
  }
  /** Whether an earlier instance's cases were copied and checked without error. */
  let casesChecked = false;
  /**
   * The noise and llm facades, made (and hardened) once for every instance: they hold nothing but
   * the engine object of the step call in progress, and an instance's code cannot reach another
   * instance's closures (frozen globals), so sharing them carries nothing from case to case.
   * Hardening a pair per instance was a few per cent of an 8-step case.
   */
  const gate = makeNoiseGate();
  const llmGate = makeLlmGate();
  const evaluateExport = (): unknown => {
    try {
      return factory(...realm.localValues)();
    } catch (error) {
      throw new DefinitionError(`${name}: evaluating the definition failed: ${describeThrown(error, locate)}`);
    }
  };
  return {
    fileName: name,
    analysisSource: withoutListedCases(source, prepared.listedCases),
    listedCases: prepared.listedCases,
    evaluateExport,
    instantiate: (options = {}) => {
      // Re-running the definition's top level gives fresh closures; the compartment's globals
      // are frozen, so nothing else carries state from one instance to the next.
      const exported = evaluateExport();
      const copied = toPipelineDef(exported, { gate, llmGate, locate });
      // Skipped (left undefined) only when an earlier instance of the same source checked them.
      const skip = options.cases === 'skip' || (options.cases === false && casesChecked);
      const cases = skip ? undefined : copyCaseDefs(readCases(copied, name, locate), name);
      let valid: ValidPipeline;
      try {
        valid = validatePipeline(copied.definition);
      } catch (error) {
        if (error instanceof DefinitionError) throw new DefinitionError(`${name}: ${error.message}`);
        throw error;
      }
      if (cases !== undefined) {
        valid.cases = cases;
        casesChecked = true;
      }
      return valid;
    },
  };
}

/**
 * The exported `cases`. They may be built only now (a getter, see prepare-source): what building
 * them throws is a definition error with the user's line and column, like any top-level error.
 */
function readCases(copied: CopiedDefinition, fileName: string, locate: (stack: string) => string | undefined): unknown {
  try {
    return copied.readCases();
  } catch (error) {
    throw new DefinitionError(`${fileName}: evaluating the definition failed: building its cases: ${describeThrown(error, locate)}`);
  }
}

/**
 * The name goes into a `//# sourceURL=` comment and into messages: keep it to one harmless line.
 */
function safeFileName(fileName: string): string {
  const cleaned = String(fileName).replace(/[^\w.\-/@+ ]/g, '_').trim();
  return cleaned === '' ? 'pipeline.js' : cleaned;
}

/**
 * Map the first `file:line:column` of a stack from the evaluated text back to the user's file:
 * line 1 carries the wrapper's head, and the lines the rewrite edited carry its shifts.
 */
function makeLocator(fileName: string, headLength: number, prepared: PreparedSource): (stack: string) => string | undefined {
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const framePattern = new RegExp(`${escaped}:(\\d+):(\\d+)`);
  return (stack) => {
    const match = framePattern.exec(stack);
    if (!match) return undefined;
    const line = Number(match[1]);
    let column = Number(match[2]);
    if (line === 1) column -= headLength;
    return `${fileName}:${line}:${Math.max(1, originalColumn(prepared.shifts, line, column))}`;
  };
}
