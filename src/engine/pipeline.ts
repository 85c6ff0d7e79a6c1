import type { PipelineDef, VariantDef } from './types.ts';
import { DefinitionError } from './errors.ts';

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

function isFiniteNonNegative(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0;
}

/**
 * The one rule set of a definition's structure (docs/formats.md, "Pipeline definitions"), checked
 * before anything runs: names, inputs in order, fixes, costs, metric, threshold, range. Inputs that
 * are not earlier steps are taken as case inputs, so a reference to a later step (a forward
 * reference or a cycle) is an error here. Returns the same definition, marked as validated.
 */
export function validatePipeline(def: PipelineDef): ValidPipeline {
  if (def === null || typeof def !== 'object') throw new DefinitionError('the definition must export an object');
  if (typeof def.name !== 'string' || def.name === '') throw new DefinitionError('the pipeline needs a non-empty "name"');
  if (!Array.isArray(def.steps) || def.steps.length === 0) throw new DefinitionError('the pipeline needs a non-empty "steps" array');
  if (def.steps.length > MAX_PLAYERS) throw new DefinitionError(`the pipeline has ${def.steps.length} steps; at most ${MAX_PLAYERS} are supported`);
  if (typeof def.metric !== 'function') throw new DefinitionError('the pipeline needs a "metric" function');
  if (def.threshold !== undefined && !(typeof def.threshold === 'number' && Number.isFinite(def.threshold))) {
    throw new DefinitionError('"threshold" must be a finite number');
  }
  if (def.range !== undefined) {
    const r = def.range;
    if (!Array.isArray(r) || r.length !== 2 || !r.every((x) => typeof x === 'number' && Number.isFinite(x)) || !(r[0] < r[1])) {
      throw new DefinitionError('"range" must be [lo, hi] with finite lo < hi');
    }
  }
  const allNames = new Map<string, number>();
  def.steps.forEach((s, i) => {
    if (s && typeof s.name === 'string' && !allNames.has(s.name)) allNames.set(s.name, i);
  });
  const seen = new Set<string>();
  def.steps.forEach((step, index) => {
    const label = step && typeof step.name === 'string' && step.name !== '' ? `step "${step.name}"` : `steps[${index}]`;
    if (step === null || typeof step !== 'object') throw new DefinitionError(`${label} must be an object`);
    if (typeof step.name !== 'string' || step.name === '') throw new DefinitionError(`${label} needs a non-empty "name"`);
    if (seen.has(step.name)) throw new DefinitionError(`${label} is defined twice (step names must be unique)`);
    if (!Array.isArray(step.inputs)) throw new DefinitionError(`${label}: "inputs" must be an array of names`);
    for (const input of step.inputs) {
      if (typeof input !== 'string' || input === '') throw new DefinitionError(`${label}: every input must be a non-empty name`);
      if (input === step.name) throw new DefinitionError(`${label} takes its own output as an input (a cycle)`);
      const at = allNames.get(input);
      if (at !== undefined && at > index) {
        throw new DefinitionError(`${label} takes input "${input}", a later step (steps may only read earlier steps: a forward reference or a cycle)`);
      }
    }
    if (new Set(step.inputs).size !== step.inputs.length) throw new DefinitionError(`${label} lists an input twice`);
    if (step.cost === undefined) throw new DefinitionError(`${label}: "cost" is missing (a finite number >= 0)`);
    if (!isFiniteNonNegative(step.cost)) throw new DefinitionError(`${label}: "cost" must be a finite number >= 0`);
    if (typeof step.run !== 'function') throw new DefinitionError(`${label}: "run" must be a function`);
    if (!Array.isArray(step.fixes) || step.fixes.length === 0) throw new DefinitionError(`${label} has no fixes (each step needs at least one fix)`);
    const fixNames = new Set<string>();
    step.fixes.forEach((fix: VariantDef, j: number) => {
      const fl = `${label}, fixes[${j}]`;
      if (fix === null || typeof fix !== 'object') throw new DefinitionError(`${fl} must be an object`);
      if (typeof fix.name !== 'string' || fix.name === '') throw new DefinitionError(`${fl} needs a non-empty "name"`);
      if (fixNames.has(fix.name)) throw new DefinitionError(`${label} has two fixes named "${fix.name}"`);
      fixNames.add(fix.name);
      if (fix.cost === undefined) throw new DefinitionError(`${label}, fix "${fix.name}": "cost" is missing (a finite number >= 0)`);
      if (!isFiniteNonNegative(fix.cost)) throw new DefinitionError(`${label}, fix "${fix.name}": "cost" must be a finite number >= 0`);
      if (typeof fix.run !== 'function') throw new DefinitionError(`${label}, fix "${fix.name}": "run" must be a function`);
    });
    seen.add(step.name);
  });
  return def as ValidPipeline;
}

/** Names a step reads that are not steps: the case inputs it needs. */
export function caseInputNames(def: PipelineDef): string[] {
  const steps = new Set(def.steps.map((s) => s.name));
  const names = new Set<string>();
  for (const s of def.steps) for (const i of s.inputs) if (!steps.has(i)) names.add(i);
  return [...names];
}
