import type { CaseDef, PipelineDef, StepRun } from './types.ts';
import { canonicalize, deepFreeze } from './canonical.ts';
import { ReplayError } from './errors.ts';
import { createStepNoise, type WorldNoise } from './noise.ts';
import type { Noise } from './types.ts';

/** One executable version of a step: as run (variant 0) or its chosen fix (variant 1). */
interface Variant {
  label: string;
  cost: number;
  run: StepRun;
}

interface CachedOutput {
  value: unknown;
  /** Interned canonical text: equal ids mean equal plain data. */
  id: number;
}

/** Where a step input comes from: a case input (its interned id) or an earlier step's output. */
type InputSource = { caseInput: number } | { step: number };

export interface ReplayHooks {
  /** Called before every step execution (a cache miss), e.g. so a watchdog knows the step. */
  onStepStart?(stepIndex: number): void;
}

export interface WorldRun {
  score: number;
  outputs: Record<string, unknown>;
  outputIds: Int32Array;
}

/**
 * Replays a case's pipeline under chosen coalitions of fixes, in fixed worlds, with a step
 * cache keyed by (world, step, variant, inputs) and a meter charging each miss its cost.
 */
export class Replayer {
  readonly n: number;
  private readonly variants: [Variant, Variant][];
  private readonly sources: InputSource[][];
  private readonly caseInputIds: number[];
  private readonly caseInputValues: unknown[];
  /** caches[world][step]: input key -> output. */
  private readonly caches: Map<string, CachedOutput>[][];
  private readonly intern = new Map<string, number>();
  private readonly noises: Noise[][];
  private readonly factualNoises: (Noise | null)[][];
  private readonly factualDone: boolean[];
  spent = 0;
  executions = 0;

  constructor(
    private readonly def: PipelineDef,
    private readonly c: CaseDef,
    readonly worlds: WorldNoise[],
    fixIndex: readonly number[],
    private readonly hooks: ReplayHooks = {},
    /** Observed choices to abduct from in each world's factual run (posterior mode). */
    abductFrom?: CaseDef['observed'],
    recordChoices = false,
  ) {
    this.n = def.steps.length;
    const stepIndex = new Map(def.steps.map((s, i) => [s.name, i]));
    const caseInputNames: string[] = [];
    this.sources = def.steps.map((step) =>
      step.inputs.map((name) => {
        const si = stepIndex.get(name);
        if (si !== undefined) return { step: si };
        if (!Object.prototype.hasOwnProperty.call(c.inputs, name)) {
          throw new ReplayError(
            `case "${c.id}": step "${step.name}" reads "${name}", which is neither an earlier step nor an input of the case (inputs: ${Object.keys(c.inputs).join(', ') || 'none'})`,
            step.name,
          );
        }
        let k = caseInputNames.indexOf(name);
        if (k < 0) k = caseInputNames.push(name) - 1;
        return { caseInput: k };
      }),
    );
    this.caseInputValues = caseInputNames.map((name) => deepFreeze(structuredCloneIfNeeded(c.inputs[name])));
    this.caseInputIds = this.caseInputValues.map((v, k) => this.internValue(v, `case "${c.id}": input "${caseInputNames[k]}"`));
    this.variants = def.steps.map((s, i) => {
      const fix = s.fixes[fixIndex[i] ?? 0];
      return [
        { label: `step "${s.name}"`, cost: s.cost, run: s.run },
        { label: `step "${s.name}" (fix "${fix.name}")`, cost: fix.cost, run: fix.run },
      ];
    });
    this.caches = worlds.map(() => def.steps.map(() => new Map()));
    this.noises = worlds.map((w) => def.steps.map((s) => createStepNoise(w, s.name, { recordChoices })));
    this.factualNoises = worlds.map((w) =>
      def.steps.map((s) => {
        const obs = abductFrom?.[s.name];
        return obs || recordChoices ? createStepNoise(w, s.name, { abductFrom: obs, recordChoices }) : null;
      }),
    );
    this.factualDone = worlds.map(() => false);
  }

  private internValue(value: unknown, where: string): number {
    let text: string;
    try {
      text = canonicalize(value);
    } catch (e) {
      throw new ReplayError(`${where}: ${(e as Error).message}`, null);
    }
    let id = this.intern.get(text);
    if (id === undefined) {
      id = this.intern.size;
      this.intern.set(text, id);
    }
    return id;
  }

  /** Run the pipeline in world w with the steps in `mask` fixed. The factual run (mask 0) of each world must come first. */
  runWorld(w: number, mask: number): WorldRun {
    const n = this.n;
    const steps = this.def.steps;
    const outputIds = new Int32Array(n);
    const outputs: Record<string, unknown> = {};
    const values: unknown[] = new Array(n);
    const factual = mask === 0 && !this.factualDone[w];
    let rest = mask;
    for (let i = 0; i < n; i++) {
      // Arithmetic, not bitwise: masks may exceed 32 bits.
      const fixed = rest % 2 === 1;
      rest = (rest - (fixed ? 1 : 0)) / 2;
      const variantIndex = fixed ? 1 : 0;
      const src = this.sources[i];
      let key = variantIndex === 1 ? 'f' : 'a';
      for (let j = 0; j < src.length; j++) {
        const s = src[j];
        key += 'step' in s ? `,${outputIds[s.step]}` : `,c${this.caseInputIds[s.caseInput]}`;
      }
      const cache = this.caches[w][i];
      let hit = cache.get(key);
      if (hit === undefined) {
        const variant = this.variants[i][variantIndex];
        const inputs: Record<string, unknown> = {};
        const names = steps[i].inputs;
        for (let j = 0; j < src.length; j++) {
          const s = src[j];
          inputs[names[j]] = 'step' in s ? values[s.step] : this.caseInputValues[s.caseInput];
        }
        const noise = (factual && this.factualNoises[w][i]) || this.noises[w][i];
        this.hooks.onStepStart?.(i);
        let value: unknown;
        try {
          value = variant.run(inputs, noise);
        } catch (e) {
          throw new ReplayError(`case "${this.c.id}": ${variant.label} threw: ${errorText(e)}`, steps[i].name);
        }
        if (value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') {
          throw new ReplayError(`case "${this.c.id}": ${variant.label} returned a promise; steps must be synchronous`, steps[i].name);
        }
        deepFreeze(value);
        hit = { value, id: this.internValue(value, `case "${this.c.id}": ${variant.label} returned a value that`) };
        cache.set(key, hit);
        this.spent += variant.cost;
        this.executions++;
      }
      outputIds[i] = hit.id;
      values[i] = hit.value;
      outputs[steps[i].name] = hit.value;
    }
    if (factual) this.factualDone[w] = true;
    let score: unknown;
    try {
      score = this.def.metric(outputs, this.c.inputs);
    } catch (e) {
      throw new ReplayError(`case "${this.c.id}": the metric threw: ${errorText(e)}`, null);
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new ReplayError(`case "${this.c.id}": the metric returned ${describe(score)}; it must return a finite number`, null);
    }
    return { score, outputs, outputIds };
  }
}

function structuredCloneIfNeeded(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v;
}

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  try {
    return String(e);
  } catch {
    return 'an unprintable value';
  }
}

function describe(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return `a string (${JSON.stringify(v.slice(0, 40))})`;
  return v === null ? 'null' : typeof v;
}
