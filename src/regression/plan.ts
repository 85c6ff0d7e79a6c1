/**
 * The regression game's plan (docs/ci.md): two versions of a definition matched step by step. A step
 * whose code differs is a change, and its fix is its earlier version; a step only the later version
 * has was added (its fix is its absence); one only the earlier version has was removed (it is absent
 * as run, and its fix restores it). Unchanged steps take part with their own code as the fix, so
 * their value is exactly 0 and the changes share the whole difference (Shapley's null players).
 */
import type { DefinitionCode } from '../sandbox/step-code.ts';

export type StepChange = 'unchanged' | 'changed' | 'added' | 'removed';

export interface PlannedStep {
  name: string;
  change: StepChange;
  /** What the combined step reads: the later version's inputs, then the earlier version's others. */
  inputs: string[];
  /** The later version's inputs (absent for a removed step). */
  afterInputs: string[] | null;
  /** The earlier version's inputs (absent for an added step). */
  beforeInputs: string[] | null;
  /**
   * An added or removed step where it is absent: the input it passes through, or null when nothing
   * reads it (its output is then null).
   */
  passThrough?: string | null;
}

export interface RegressionPlan {
  steps: PlannedStep[];
  /** What the game changes about the inputs, printed as notes (a different metric, threshold or models). */
  notes: string[];
}

/** Two versions that cannot be set against each other: the message names the step and why. */
export class RegressionPlanError extends Error {
  override name = 'RegressionPlanError';
}

/** Matches the steps of `after` against `before` and orders them so both versions' inputs come first. */
export function planRegression(after: DefinitionCode, before: DefinitionCode): RegressionPlan {
  const afterSteps = new Map(after.steps.map((s) => [s.name, s]));
  const beforeSteps = new Map(before.steps.map((s) => [s.name, s]));
  const readers = (name: string): string[] => [
    ...after.steps.filter((s) => s.inputs.includes(name)).map((s) => `"${s.name}" (now)`),
    ...before.steps.filter((s) => s.inputs.includes(name)).map((s) => `"${s.name}" (before)`),
  ];
  // A name that is a step in one version and a case input in the other would be read as the step's output.
  for (const [version, steps, other] of [['now', after.steps, beforeSteps], ['before', before.steps, afterSteps]] as const) {
    for (const s of steps) {
      for (const input of s.inputs) {
        const ownStep = (version === 'now' ? afterSteps : beforeSteps).has(input);
        if (!ownStep && other.has(input)) {
          throw new RegressionPlanError(`step "${s.name}" reads the case input "${input}" ${version === 'now' ? 'now' : 'in the earlier version'}, which is a step in the ${version === 'now' ? 'earlier' : 'later'} version: the game cannot tell the two apart (rename the step or the input)`);
        }
      }
    }
  }
  const absence = (name: string, inputs: string[], change: 'added' | 'removed'): string | null => {
    if (inputs.length === 1) return inputs[0];
    const read = readers(name);
    if (read.length === 0) return null;
    const verb = change === 'added' ? 'was added' : 'was removed';
    const other = change === 'added' ? 'the earlier version' : 'the later version';
    throw new RegressionPlanError(
      `step "${name}" ${verb} and has ${inputs.length === 0 ? 'no inputs' : `${inputs.length} inputs (${inputs.map((i) => `"${i}"`).join(', ')})`}: the game cannot run ${other} without it, since ${read.join(', ')} read${read.length === 1 ? 's' : ''} it (an absent step passes its only input through, or gives null when nothing reads it)`,
    );
  };
  const planned = new Map<string, PlannedStep>();
  for (const s of after.steps) {
    const then = beforeSteps.get(s.name);
    if (then === undefined) {
      planned.set(s.name, { name: s.name, change: 'added', inputs: [...s.inputs], afterInputs: [...s.inputs], beforeInputs: null, passThrough: absence(s.name, s.inputs, 'added') });
      continue;
    }
    const same = s.code !== null && s.code === then.code && sameList(s.inputs, then.inputs);
    const inputs = [...s.inputs, ...then.inputs.filter((i) => !s.inputs.includes(i))];
    planned.set(s.name, { name: s.name, change: same ? 'unchanged' : 'changed', inputs, afterInputs: [...s.inputs], beforeInputs: [...then.inputs] });
  }
  for (const s of before.steps) {
    if (afterSteps.has(s.name)) continue;
    planned.set(s.name, { name: s.name, change: 'removed', inputs: [...s.inputs], afterInputs: null, beforeInputs: [...s.inputs], passThrough: absence(s.name, s.inputs, 'removed') });
  }
  const notes: string[] = [];
  if (after.metric === null || after.metric !== before.metric) notes.push('the metric differs between the two versions: both are scored with the later one');
  if (after.threshold !== before.threshold) notes.push(`the threshold differs (${before.threshold} before, ${after.threshold} now): both versions are judged by ${after.threshold}`);
  if (after.range[0] !== before.range[0] || after.range[1] !== before.range[1]) notes.push(`the metric's range differs: the later one, [${after.range.join(', ')}], is used`);
  if (after.models !== before.models || after.modelParams !== before.modelParams) notes.push('the models or model parameters differ: both versions call the later version\'s models (a model change is not a player)');
  return { steps: orderSteps(planned, after, before), notes };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The steps in an order where every input of either version comes first: the later version's order,
 * each removed step just after the step that preceded it in the earlier version. A cycle (two steps
 * reading each other across the versions) is refused with their names.
 */
function orderSteps(planned: Map<string, PlannedStep>, after: DefinitionCode, before: DefinitionCode): PlannedStep[] {
  const key = new Map<string, number>();
  after.steps.forEach((s, i) => key.set(s.name, i));
  let last = -1;
  let removedSince = 0;
  for (const s of before.steps) {
    const k = key.get(s.name);
    if (k === undefined) {
      // Removed steps in a row keep their earlier order, between the same two later steps.
      removedSince++;
      key.set(s.name, last + removedSince / (before.steps.length + 1));
    } else {
      last = k;
      removedSince = 0;
    }
  }
  const pending = [...planned.values()];
  const placed = new Set<string>();
  const out: PlannedStep[] = [];
  while (pending.length > 0) {
    const ready = pending.filter((p) => p.inputs.every((i) => !planned.has(i) || placed.has(i)));
    if (ready.length === 0) {
      throw new RegressionPlanError(`steps ${pending.map((p) => `"${p.name}"`).join(', ')} read each other across the two versions (one reads another that the other version runs later): the game needs one order for both`);
    }
    ready.sort((a, b) => key.get(a.name)! - key.get(b.name)!);
    const next = ready[0];
    out.push(next);
    placed.add(next.name);
    pending.splice(pending.indexOf(next), 1);
  }
  return out;
}
