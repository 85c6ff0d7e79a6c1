import type { CaseDef, Llm, PipelineDef, StepRun, StepTools } from './types.ts';
import { deepFreeze } from './canonical.ts';
import { ReplayError } from './errors.ts';
import type { ModelContext } from './model-context.ts';
import { StepLlm } from './step-llm.ts';
import { ValueInterner } from './intern.ts';
import { abductCheckedDraw, createStepNoise, type StepNoiseOptions, type WorldNoise } from './noise.ts';
import type { Noise } from './types.ts';
import { type Coalition, isEmptyCoalition, membersOf } from './coalition.ts';
import type { SharedStepCache } from './shared-step-cache.ts';
import { slots, type Slots } from './slots.ts';

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
 * A step cache for one (world, step, variant): a trie over the interned ids of the step's inputs
 * from earlier steps, in input order (the last level holds the outputs; the case inputs are fixed
 * per Replayer, see Replayer.stepSources). Same equivalence as a key string of the ids,
 * without building and hashing a string for every step of every replay.
 */
type CacheEntry = CacheNode | CachedOutput;

/**
 * One level of a step cache trie. Most levels only ever hold one key (a world replayed once or
 * twice, as independent sampling does), so the first entry is kept in two fields and a Map is
 * made only for a second key: a Map per level was a fifth of what fresh worlds allocated.
 */
class CacheNode {
  private firstKey = -1;
  private firstValue: CacheEntry | undefined = undefined;
  private more: Map<number, CacheEntry> | null = null;

  /** Keys are interned ids or 0: never negative. */
  get(key: number): CacheEntry | undefined {
    if (key === this.firstKey) return this.firstValue;
    return this.more === null ? undefined : this.more.get(key);
  }

  set(key: number, value: CacheEntry): void {
    if (this.firstKey === -1 || key === this.firstKey) {
      this.firstKey = key;
      this.firstValue = value;
    } else (this.more ??= new Map()).set(key, value);
  }
}

/** The metric's scores by the ids of every step's output: a trie in step order (the last level holds the score). */
type ScoreNode = Map<number, ScoreNode | number>;

/**
 * Largest pipeline whose replays memoise step outputs by mask prefix: step i has 2^(i+1) slots per
 * world, preallocated so V8 keeps them as fast arrays (it would not above ~100 000 elements).
 */
const PREFIX_MEMO_MAX_STEPS = 16;

/**
 * A posterior factual run that drew nothing but the observed choices: its outputs are the same in
 * every world (each draw's outcome is the observation), and only the abducted Gumbels differ. So
 * the factual run of another world is replayed from it: abduct the recorded logits in that world,
 * put the recorded outputs in its step cache, charge the steps' costs as if they had run.
 */
interface FactualTemplate {
  /** Per step, in order: the output of the as-run variant on the factual inputs. */
  outputs: CachedOutput[];
  /** The observed draws to abduct, with the logits the factual run drew them under. */
  draws: { step: string; key: string; logits: Readonly<Record<string, number>>; chosen: string }[];
}

/** Where a step input comes from: a case input (its interned id) or an earlier step's output. */
type InputSource = { caseInput: number } | { step: number };

export interface ReplayHooks {
  /** Called before every step execution (a cache miss), e.g. so a watchdog knows the step. */
  onStepStart?(stepIndex: number): void;
  /**
   * Model responses known to this round of the analysis (model steps). With it, a step whose
   * response is unknown suspends (StepSuspended) instead of running on; without it, `llm` throws.
   */
  model?: ModelContext;
  /**
   * Step outputs shared with the study's other cases (SharedStepCache): used only by replays that
   * neither abduct nor record choices (their outputs depend on more than the inputs); executions
   * that drew noise or called a model are never shared.
   */
  shared?: SharedStepCache;
}

const noModel = (): never => {
  throw new Error('llm is not available here: this analysis runs without a model host (use the command or the workbench, which answer model requests)');
};
/** The tools of a step when no model host takes part (plain simulated pipelines, trace building). */
const NO_TOOLS: StepTools = Object.freeze({ llm: Object.freeze({ chat: noModel, choose: noModel }) as Llm });

export interface WorldRun {
  readonly score: number;
  /** Every step's output by step name, in step order. */
  readonly outputs: Record<string, unknown>;
  readonly outputIds: Int32Array;
}

/**
 * A replay's result. The outputs record is built when first read: most replays only need the
 * score (a record per replay was a tenth of a cache-hit replay's time).
 */
class ReplayedRun implements WorldRun {
  private record: Record<string, unknown> | null = null;
  private idArray: Int32Array | null = null;

  constructor(
    readonly score: number,
    private readonly values: readonly unknown[],
    private readonly ids: readonly number[],
    private readonly names: readonly string[],
  ) {}

  get outputs(): Record<string, unknown> {
    return (this.record ??= outputRecord(this.names, this.values));
  }

  get outputIds(): Int32Array {
    return (this.idArray ??= Int32Array.from(this.ids));
  }
}

/**
 * What one world of a Replayer keeps, made when the world is first replayed: games that use
 * many fresh worlds once each (independent sampling) should not pay for all of them up front.
 */
interface WorldState {
  /**
   * What the world keeps by index, in one table without a prototype (slots.ts: one table, not
   * one per kind, since a fresh world used once made a dozen), laid out by the Replayer's offsets:
   * - [2 * step + variant]: the step cache, input ids -> output (made on the first miss);
   * - [noiseAt + step], [factualNoiseAt + step]: noise handles, made when a step first executes in
   *   the world (most replays are cache hits);
   * - [prefixAt[step] + low bits of the mask, steps 0..step]: the step's output. A step's inputs
   *   depend only on the variants of the steps up to it, so a replay that has seen these low bits
   *   reuses the entry the cache lookup would return, in one read instead of a walk. Only for
   *   n <= PREFIX_MEMO_MAX_STEPS (2^(step+1) slots a step);
   * - [scoreAt[step] + low bits, steps 0..step] (steps 0..n-2): the score trie's node reached by the
   *   output ids of steps 0..step (they depend only on those bits too), so a score lookup walks only
   *   the levels this world has not seen under these bits; emptied when the score trie is
   *   (scoreGeneration).
   */
  table: Slots<unknown>;
  scoreGeneration: number;
  factualDone: boolean;
}

/** Outputs by step name, in step order (a step named `__proto__` becomes an own property). */
function outputRecord(names: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) {
    if (names[i] === '__proto__') Object.defineProperty(record, names[i], { value: values[i], enumerable: true, writable: true, configurable: true });
    else record[names[i]] = values[i];
  }
  return record;
}

/**
 * Replays a case's pipeline under chosen coalitions of fixes, in fixed worlds, with a step
 * cache keyed by (world, step, variant, inputs) and a meter charging each miss its cost.
 */
export class Replayer {
  /**
   * Trie nodes the score cache may hold before it is emptied: about 100 MB of maps. Scores are a
   * pure function of the outputs, so emptying the cache changes no result and no step cost, only
   * how often the metric runs. (Static so a test can make it small.)
   */
  static maxScoreNodes = 1_000_000;
  readonly n: number;
  private readonly variants: [Variant, Variant][];
  private readonly sources: InputSource[][];
  /** Per step, per input: the source step's index, or -(k + 1) for case input k (no `in` checks in the hot loop). */
  private readonly sourceIndex: Int32Array[];
  /**
   * Per step: the indices of the earlier steps it reads, in input order. The step cache is keyed
   * by their output ids only: the case inputs are the same in every replay of this Replayer, so
   * keying by their ids too would add trie levels with one child each and change no hit or miss.
   */
  private readonly stepSources: Int32Array[];
  private readonly caseInputValues: unknown[];
  /**
   * Scores by output ids, shared by all worlds: the metric sees only (outputs, case inputs), so
   * equal outputs give the same score (the metric must be a pure function, as steps must be).
   */
  private scores: ScoreNode = new Map();
  /** Trie nodes made since the score trie was last emptied (see Replayer.maxScoreNodes). */
  private scoreNodes = 0;
  /** Times the score trie was emptied: a world's scorePrefix of an older generation points into a dropped trie. */
  private scoreGeneration = 0;
  private readonly interner = new ValueInterner();
  private readonly stepNames: readonly string[];
  /** Per world, made on first use (see WorldState). */
  private readonly states: Slots<WorldState | undefined>;
  /** Offsets in a world's table (WorldState); prefixAt and scoreAt are empty above PREFIX_MEMO_MAX_STEPS steps. */
  private readonly noiseAt: number;
  private readonly factualNoiseAt: number;
  private readonly prefixAt: number[] = [];
  private readonly scoreAt: number[] = [];
  private readonly tableSize: number;
  private readonly abductFrom: CaseDef['observed'];
  private readonly recordChoices: boolean;
  /** Options of every non-factual noise handle (one object, not one per handle). */
  private readonly noiseOptions: StepNoiseOptions;
  /** The first posterior factual run, when replayable in other worlds (null: it drew fresh noise; undefined: not run yet). */
  private factualTemplate: FactualTemplate | null | undefined;
  /** hooks.shared where it may be used (see ReplayHooks.shared). */
  private readonly shared: SharedStepCache | null;
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
    this.stepNames = def.steps.map((s) => s.name);
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
    // Interned once to check them: a case input that is not plain data fails here, named.
    this.caseInputValues.forEach((v, k) => this.internValue(v, `case "${c.id}": input "${caseInputNames[k]}"`));
    this.variants = def.steps.map((s, i) => {
      const fix = s.fixes[fixIndex[i] ?? 0];
      return [
        { label: `step "${s.name}"`, cost: s.cost, run: s.run },
        { label: `step "${s.name}" (fix "${fix.name}")`, cost: fix.cost, run: fix.run },
      ];
    });
    this.sourceIndex = this.sources.map((src) => Int32Array.from(src, (s) => ('step' in s ? s.step : -(s.caseInput + 1))));
    this.stepSources = this.sourceIndex.map((at) => at.filter((a) => a >= 0));
    this.states = slots<WorldState | undefined>(worlds.length, undefined);
    const n = this.n;
    this.noiseAt = 2 * n;
    this.factualNoiseAt = 3 * n;
    let size = 4 * n;
    if (n <= PREFIX_MEMO_MAX_STEPS) {
      for (let i = 0; i < n; i++) {
        this.prefixAt.push(size);
        size += 2 << i;
      }
      // The last step's node would be the parent of no further level: steps 0..n-2 only.
      for (let i = 0; i + 1 < n; i++) {
        this.scoreAt.push(size);
        size += 2 << i;
      }
    }
    this.tableSize = size;
    this.abductFrom = abductFrom;
    this.recordChoices = recordChoices;
    this.noiseOptions = { recordChoices };
    // Only posterior worlds abduct; recording choices or asking a model (seeded by the world) runs every step.
    this.factualTemplate = abductFrom && !recordChoices && !hooks.model ? undefined : null;
    this.shared = hooks.shared && !abductFrom && !recordChoices ? hooks.shared : null;
  }

  private stateOf(w: number): WorldState {
    let state = this.states[w];
    if (state === undefined) {
      if (!(w >= 0 && w < this.worlds.length)) throw new RangeError(`world ${w} does not exist (${this.worlds.length} worlds)`);
      state = this.states[w] = { table: slots<unknown>(this.tableSize, undefined), scoreGeneration: this.scoreGeneration, factualDone: false };
    }
    return state;
  }

  /** The noise handle step i gets in world w (its factual one abducts or records choices). Creating one has no side effects. */
  private noiseFor(state: WorldState, w: number, i: number, factual: boolean): Noise {
    const world = this.worlds[w];
    const name = this.stepNames[i];
    const table = state.table;
    if (factual) {
      let fn = table[this.factualNoiseAt + i] as Noise | null | undefined;
      if (fn === undefined) {
        const from = this.abductFrom;
        const obs = from && Object.hasOwn(from, name) ? from[name] : undefined;
        fn = table[this.factualNoiseAt + i] = obs || this.recordChoices ? createStepNoise(world, name, { abductFrom: obs, recordChoices: this.recordChoices }) : null;
      }
      if (fn) return fn;
    }
    let noise = table[this.noiseAt + i] as Noise | undefined;
    if (noise === undefined) table[this.noiseAt + i] = noise = createStepNoise(world, name, this.noiseOptions);
    return noise;
  }

  /** The interned id of a plain value: equal ids exactly when the canonical texts are equal. */
  private internValue(value: unknown, where: string): number {
    try {
      return this.interner.id(value);
    } catch (e) {
      throw new ReplayError(`${where}: ${(e as Error).message}`, null);
    }
  }

  /** Run the pipeline in world w with the steps in `mask` fixed. The factual run (mask 0) of each world must come first. */
  runWorld(w: number, mask: Coalition): WorldRun {
    const n = this.n;
    const state = this.stateOf(w);
    if (isEmptyCoalition(mask) && !state.factualDone && this.factualTemplate !== null) {
      if (this.factualTemplate !== undefined) return this.replayFactual(state, w, this.factualTemplate);
      const world = this.worlds[w];
      const before = world.freshDraws;
      const executionsBefore = this.executions;
      const run = this.runSteps(state, w, mask, n);
      // Every step ran (a fresh world) and drew only observed choices: the run is the template.
      const replayable = world.freshDraws === before && this.executions - executionsBefore === n;
      this.factualTemplate = replayable ? this.templateOf(state, world) : null;
      return run;
    }
    return this.runSteps(state, w, mask, n);
  }

  /** The factual run just made in `state` as a template (see FactualTemplate). */
  private templateOf(state: WorldState, world: WorldNoise): FactualTemplate | null {
    const outputs: CachedOutput[] = [];
    if (this.prefixAt.length === 0) return null;
    for (let i = 0; i < this.n; i++) {
      const hit = state.table[this.prefixAt[i]] as CachedOutput | undefined;
      if (hit === undefined) return null;
      outputs.push(hit);
    }
    const draws: FactualTemplate['draws'] = [];
    for (const [step, byKey] of world.abducted) for (const [key, draw] of byKey) draws.push({ step, key, logits: draw.logits, chosen: draw.chosen });
    return { outputs, draws };
  }

  /**
   * The factual run of world w from the template: the same outputs in the step cache (at the same
   * inputs, so later coalition runs hit them as after a real run), the same cost charged, and the
   * observed draws abducted in this world's noise, exactly as its own factual run would.
   */
  private replayFactual(state: WorldState, w: number, template: FactualTemplate): WorldRun {
    const world = this.worlds[w];
    // Abducted in the template's own world first (which checked them); their Gumbels are computed when read.
    for (const d of template.draws) abductCheckedDraw(world, d.step, d.key, d.logits, d.chosen);
    const outputIds: number[] = [];
    const values: unknown[] = [];
    for (let i = 0; i < this.n; i++) {
      const hit = template.outputs[i];
      const at = this.stepSources[i];
      this.leafLevel(state, 2 * i, at, outputIds).set(at.length > 0 ? outputIds[at[at.length - 1]] : 0, hit);
      state.table[this.prefixAt[i]] = hit;
      this.spent += this.variants[i][0].cost;
      this.executions++;
      outputIds.push(hit.id);
      values.push(hit.value);
    }
    state.factualDone = true;
    return new ReplayedRun(this.scoreOf(values, outputIds, state, 0), values, outputIds, this.stepNames);
  }

  /** One replay of world w with the steps in `mask` fixed, through the step cache. */
  private runSteps(state: WorldState, w: number, mask: Coalition, n: number): WorldRun {
    // Plain arrays filled by push in step order (see slots.ts for why not stores by index).
    const outputIds: number[] = [];
    const values: unknown[] = [];
    const factual = isEmptyCoalition(mask) && !state.factualDone;
    if (this.prefixAt.length > 0) {
      const table = state.table;
      // n <= PREFIX_MEMO_MAX_STEPS, so the mask is a number that fits in 32 bits: bit operations.
      const bits = mask as number;
      for (let i = 0; i < n; i++) {
        const at = this.prefixAt[i] + (bits & ((2 << i) - 1));
        let hit = table[at] as CachedOutput | undefined;
        if (hit === undefined) {
          hit = this.cachedStep(state, w, i, (bits >>> i) & 1, outputIds, values, factual);
          table[at] = hit;
        }
        outputIds.push(hit.id);
        values.push(hit.value);
      }
    } else {
      // Above 52 steps the mask is a bigint: read its bits once; below, plain arithmetic.
      const bigBits = typeof mask === 'bigint' ? membersOf(mask, n) : null;
      let rest = typeof mask === 'bigint' ? 0 : mask;
      for (let i = 0; i < n; i++) {
        let fixed: boolean;
        if (bigBits === null) {
          // Arithmetic, not bitwise: masks may exceed 32 bits.
          fixed = rest % 2 === 1;
          rest = (rest - (fixed ? 1 : 0)) / 2;
        } else fixed = bigBits[i] === 1;
        const hit = this.cachedStep(state, w, i, fixed ? 1 : 0, outputIds, values, factual);
        outputIds.push(hit.id);
        values.push(hit.value);
      }
    }
    if (factual) state.factualDone = true;
    return new ReplayedRun(this.scoreOf(values, outputIds, state, mask), values, outputIds, this.stepNames);
  }

  /** Step i's variant on the outputs so far, from the world's step cache or executed (a miss). */
  private cachedStep(state: WorldState, w: number, i: number, variantIndex: number, outputIds: readonly number[], values: readonly unknown[], factual: boolean): CachedOutput {
    const at = this.stepSources[i];
    const node = this.leafLevel(state, 2 * i + variantIndex, at, outputIds);
    const leafKey = at.length > 0 ? outputIds[at[at.length - 1]] : 0;
    let hit = node.get(leafKey) as CachedOutput | undefined;
    if (hit === undefined) {
      hit = this.execute(state, w, i, variantIndex, values, factual);
      node.set(leafKey, hit);
    }
    return hit;
  }

  /**
   * The leaf level of a step variant's cache trie (`slot` = 2 * step + variant) for the outputs so
   * far: the trie is walked by the ids of the inputs that come from earlier steps, all but the
   * last; the leaf level is keyed by the last of them (0 for a step that reads only case inputs).
   */
  private leafLevel(state: WorldState, slot: number, at: Int32Array, outputIds: readonly number[]): CacheNode {
    let node = state.table[slot] as CacheNode | undefined;
    if (node === undefined) state.table[slot] = node = new CacheNode();
    const last = at.length - 1;
    for (let j = 0; j < last; j++) {
      const id = outputIds[at[j]];
      let next = node.get(id) as CacheNode | undefined;
      if (next === undefined) node.set(id, (next = new CacheNode()));
      node = next;
    }
    return node;
  }

  /** Run step i's variant on the outputs so far (a cache miss): charge its cost, freeze and intern its output. */
  private execute(state: WorldState, w: number, i: number, variantIndex: number, values: readonly unknown[], factual: boolean): CachedOutput {
    const variant = this.variants[i][variantIndex];
    const at = this.sourceIndex[i];
    const names = this.def.steps[i].inputs;
    // A fresh record for this call, given to the step (StepRun): the sandbox freezes it and hands
    // it to user code without a copy. Grown key by key from {}: a shallow clone of a template was as
    // fast to make, but freezing clones of it sent V8 through map transitions (47 % slower).
    const inputs: Record<string, unknown> = {};
    for (let j = 0; j < at.length; j++) {
      const a = at[j];
      const v = a >= 0 ? values[a] : this.caseInputValues[-a - 1];
      if (names[j] === '__proto__') Object.defineProperty(inputs, '__proto__', { value: v, enumerable: true, writable: true, configurable: true });
      else inputs[names[j]] = v;
    }
    const shared = this.shared;
    const sharedKey = shared?.keyOf(i, variant.label, inputs) ?? null;
    if (sharedKey !== null) {
      const known = shared!.get(sharedKey);
      // Another case ran this step on these inputs without drawing noise: the same output, no run.
      if (known !== undefined) return { value: known.value, id: this.internValue(known.value, `case "${this.c.id}": ${variant.label}`) };
    }
    const drawsBefore = this.worlds[w].freshDraws;
    const lookupsBefore = this.hooks.model?.lookups ?? 0;
    const noise = this.noiseFor(state, w, i, factual);
    this.hooks.onStepStart?.(i);
    const model = this.hooks.model;
    const tools = model ? { llm: new StepLlm(this.worlds[w], this.stepNames[i], noise, model) } : NO_TOOLS;
    model?.beginStep();
    let value: unknown;
    try {
      value = variant.run(inputs, noise, tools);
    } catch (e) {
      // A step that asked for an unknown response is suspended whatever it did with the throw,
      // and one whose request failed fails with the host's message.
      throw this.interrupted(model) ?? new ReplayError(`case "${this.c.id}": ${variant.label} threw: ${errorText(e)}`, this.stepNames[i]);
    }
    const interruption = this.interrupted(model);
    if (interruption) throw interruption;
    if (value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') {
      throw new ReplayError(`case "${this.c.id}": ${variant.label} returned a promise; steps must be synchronous`, this.stepNames[i]);
    }
    deepFreeze(value);
    let id: number;
    try {
      id = this.interner.id(value);
    } catch (e) {
      throw new ReplayError(`case "${this.c.id}": ${variant.label} returned a value that: ${(e as Error).message}`, null);
    }
    this.spent += variant.cost;
    this.executions++;
    if (sharedKey !== null && this.worlds[w].freshDraws === drawsBefore && (model?.lookups ?? 0) === lookupsBefore) shared!.set(sharedKey, value);
    return { value, id };
  }

  /** What a step's model calls ended in (suspension, failure), with the case named in a failure. */
  private interrupted(model: ModelContext | undefined): Error | null {
    const interruption = model?.endStep() ?? null;
    if (interruption instanceof ReplayError) return new ReplayError(`case "${this.c.id}": ${interruption.message}`, interruption.step);
    return interruption;
  }

  /** The metric on these outputs, computed once per distinct tuple of output ids. */
  private scoreOf(values: readonly unknown[], outputIds: readonly number[], state: WorldState, mask: Coalition): number {
    // A pure cache: emptied when it grows past its bound (a long chain of steps sampled for
    // millions of coalitions makes a path of maps per coalition); a score is then computed again.
    if (this.scoreNodes > Replayer.maxScoreNodes) {
      this.scores = new Map();
      this.scoreNodes = 0;
      this.scoreGeneration++;
    }
    const last = outputIds.length - 1;
    let node = this.scores;
    let from = 0;
    const memo = this.scoreAt.length > 0 ? state.table : null;
    const scoreAt = this.scoreAt;
    const bits = mask as number;
    if (memo !== null) {
      if (state.scoreGeneration !== this.scoreGeneration) {
        for (let k = scoreAt[0]; k < this.tableSize; k++) memo[k] = undefined;
        state.scoreGeneration = this.scoreGeneration;
      }
      // The deepest level this world reached under the same low bits of the mask.
      for (let i = last - 1; i >= 0; i--) {
        const known = memo[scoreAt[i] + (bits & ((2 << i) - 1))] as ScoreNode | undefined;
        if (known !== undefined) {
          node = known;
          from = i + 1;
          break;
        }
      }
    }
    for (let i = from; i < last; i++) {
      let next = node.get(outputIds[i]) as ScoreNode | undefined;
      if (next === undefined) {
        node.set(outputIds[i], (next = new Map()));
        this.scoreNodes++;
      }
      node = next;
      if (memo !== null) memo[scoreAt[i] + (bits & ((2 << i) - 1))] = node;
    }
    const leafKey = last >= 0 ? outputIds[last] : 0;
    const known = node.get(leafKey) as number | undefined;
    if (known !== undefined) return known;
    let score: unknown;
    try {
      score = this.def.metric(outputRecord(this.stepNames, values), this.c.inputs);
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
