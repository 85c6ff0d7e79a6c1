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

/**
 * A step cache for one (world, step, variant): a trie over the interned ids of the step's inputs,
 * in input order (the last level holds the outputs). Same equivalence as a key string of the ids,
 * without building and hashing a string for every step of every replay.
 */
type CacheNode = Map<number, CacheNode | CachedOutput>;

/** The metric's scores by the ids of every step's output: a trie in step order (the last level holds the score). */
type ScoreNode = Map<number, ScoreNode | number>;

/**
 * Largest pipeline whose replays memoise step outputs by mask prefix: step i has 2^(i+1) slots per
 * world, preallocated so V8 keeps them as fast arrays (it would not above ~100 000 elements).
 */
const PREFIX_MEMO_MAX_STEPS = 16;

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
  /** Per step, per input: the source step's index, or -(k + 1) for case input k (no `in` checks in the hot loop). */
  private readonly sourceIndex: Int32Array[];
  private readonly caseInputIds: number[];
  private readonly caseInputValues: unknown[];
  /** caches[world][step][variant]: input ids -> output. */
  private readonly caches: [CacheNode, CacheNode][][];
  /**
   * Scores by output ids, shared by all worlds: the metric sees only (outputs, case inputs), so
   * equal outputs give the same score (the metric must be a pure function, as steps must be).
   */
  private readonly scores: ScoreNode = new Map();
  private readonly intern = new Map<string, number>();
  /**
   * prefixHits[world][step][low bits of the mask, steps 0..step]: the step's output. A step's
   * inputs depend only on the variants of the steps up to it, so a replay that has seen these low
   * bits reuses the entry the cache lookup would return, in one array read instead of a walk.
   * Only for n <= PREFIX_MEMO_MAX_STEPS (2^(n+1) slots per world).
   */
  private readonly prefixHits: (CachedOutput | undefined)[][][] | null;
  /** Noise handles, made when a step first executes in a world (most replays are cache hits). */
  private readonly noises: (Noise | undefined)[][];
  private readonly factualNoises: (Noise | null | undefined)[][];
  private readonly abductFrom: CaseDef['observed'];
  private readonly recordChoices: boolean;
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
    this.sources = def.steps.map((step, index) =>
      step.inputs.map((name) => {
        const si = stepIndex.get(name);
        if (si !== undefined) {
          // A later (or the same) step has no output yet when this one runs: reading it would silently see a stale slot.
          if (si >= index) {
            throw new ReplayError(`case "${c.id}": step "${step.name}" reads "${name}", which is not an earlier step (a forward reference or a cycle)`, step.name);
          }
          return { step: si };
        }
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
    this.sourceIndex = this.sources.map((src) => Int32Array.from(src, (s) => ('step' in s ? s.step : -(s.caseInput + 1))));
    this.caches = worlds.map(() => def.steps.map((): [CacheNode, CacheNode] => [new Map(), new Map()]));
    this.prefixHits = this.n <= PREFIX_MEMO_MAX_STEPS ? worlds.map(() => def.steps.map((_, i) => new Array(2 << i))) : null;
    this.abductFrom = abductFrom;
    this.recordChoices = recordChoices;
    this.noises = worlds.map(() => new Array(this.n));
    this.factualNoises = worlds.map(() => new Array(this.n));
    this.factualDone = worlds.map(() => false);
  }

  /** The noise handle step i gets in world w (its factual one abducts or records choices). Creating one has no side effects. */
  private noiseFor(w: number, i: number, factual: boolean): Noise {
    const world = this.worlds[w];
    const name = this.def.steps[i].name;
    if (factual) {
      let fn = this.factualNoises[w][i];
      if (fn === undefined) {
        const from = this.abductFrom;
        const obs = from && Object.hasOwn(from, name) ? from[name] : undefined;
        fn = this.factualNoises[w][i] = obs || this.recordChoices ? createStepNoise(world, name, { abductFrom: obs, recordChoices: this.recordChoices }) : null;
      }
      if (fn) return fn;
    }
    return (this.noises[w][i] ??= createStepNoise(world, name, { recordChoices: this.recordChoices }));
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
    const prefixHits = this.prefixHits?.[w];
    let rest = mask;
    for (let i = 0; i < n; i++) {
      // Arithmetic, not bitwise: masks may exceed 32 bits.
      const fixed = rest % 2 === 1;
      rest = (rest - (fixed ? 1 : 0)) / 2;
      const variantIndex = fixed ? 1 : 0;
      if (prefixHits) {
        // n <= PREFIX_MEMO_MAX_STEPS, so the mask fits in 32 bits here.
        const known = prefixHits[i][mask & ((2 << i) - 1)];
        if (known !== undefined) {
          outputIds[i] = known.id;
          values[i] = known.value;
          outputs[steps[i].name] = known.value;
          continue;
        }
      }
      const src = this.sources[i];
      const at = this.sourceIndex[i];
      // Walk the trie by input ids; the leaf level is keyed by the last input (0 for a step without inputs).
      let node = this.caches[w][i][variantIndex];
      let leafKey = 0;
      for (let j = 0; j < at.length; j++) {
        const a = at[j];
        const id = a >= 0 ? outputIds[a] : this.caseInputIds[-a - 1];
        if (j === at.length - 1) {
          leafKey = id;
          break;
        }
        let next = node.get(id) as CacheNode | undefined;
        if (next === undefined) node.set(id, (next = new Map()));
        node = next;
      }
      let hit = node.get(leafKey) as CachedOutput | undefined;
      if (hit === undefined) {
        const variant = this.variants[i][variantIndex];
        const inputs: Record<string, unknown> = {};
        const names = steps[i].inputs;
        for (let j = 0; j < src.length; j++) {
          const s = src[j];
          inputs[names[j]] = 'step' in s ? values[s.step] : this.caseInputValues[s.caseInput];
        }
        const noise = this.noiseFor(w, i, factual);
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
        node.set(leafKey, hit);
        this.spent += variant.cost;
        this.executions++;
      }
      if (prefixHits) prefixHits[i][mask & ((2 << i) - 1)] = hit;
      outputIds[i] = hit.id;
      values[i] = hit.value;
      outputs[steps[i].name] = hit.value;
    }
    if (factual) this.factualDone[w] = true;
    return { score: this.scoreOf(outputs, outputIds), outputs, outputIds };
  }

  /** The metric on these outputs, computed once per distinct tuple of output ids. */
  private scoreOf(outputs: Record<string, unknown>, outputIds: Int32Array): number {
    let node = this.scores;
    const last = outputIds.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(outputIds[i]) as ScoreNode | undefined;
      if (next === undefined) node.set(outputIds[i], (next = new Map()));
      node = next;
    }
    const leafKey = last >= 0 ? outputIds[last] : 0;
    const known = node.get(leafKey) as number | undefined;
    if (known !== undefined) return known;
    let score: unknown;
    try {
      score = this.def.metric(outputs, this.c.inputs);
    } catch (e) {
      throw new ReplayError(`case "${this.c.id}": the metric threw: ${errorText(e)}`, null);
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new ReplayError(`case "${this.c.id}": the metric returned ${describe(score)}; it must return a finite number`, null);
    }
    node.set(leafKey, score);
    return score;
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
