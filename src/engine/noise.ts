import type { Noise } from './types.ts';
import { abductGumbels } from './abduction.ts';
import { gumbelFromUniform } from './gumbel.ts';
import { AddressPrefix, hash53Address, seedLanes, unitFromHash } from './hash.ts';

/** Key used when a step omits one (docs/formats.md, "Pipeline definitions": repeated draws in a step need distinct keys). */
export const DEFAULT_KEY = 'default';

/** Option slots reserved for the non-categorical draws, so they never collide with option names. */
const RESERVED_PREFIX = '#';
const reservedMessage = (draw: string, option: string) =>
  `noise.${draw}: option "${option}" starts with "#", which is reserved for the engine's own draws; rename the option`;
const SLOT_UNIFORM = '#uniform';
const SLOT_NORMAL_RADIUS = '#normal-r';
const SLOT_NORMAL_ANGLE = '#normal-theta';
const SLOT_ABDUCT_MAX = '#abduct-max';
const RESERVED_CODE = RESERVED_PREFIX.charCodeAt(0);

/** Gumbels inferred from an observed choice, with the logits they were inferred under. */
export interface AbductedDraw {
  logits: Readonly<Record<string, number>>;
  chosen: string;
  gumbels: Readonly<Record<string, number>>;
}

/** What a world that abducted or recorded nothing reads (never written to). */
const NO_STEPS: ReadonlyMap<string, never> = new Map<string, never>();

/**
 * The exogenous noise of one world: every draw is a pure function of (world seed, step, key,
 * option). Posterior worlds also carry Gumbels abducted from the observed choices.
 */
export class WorldNoise {
  /**
   * Made on first write: most worlds (prior mode, independent sampling's fresh worlds) never
   * abduct or record, and two Maps per world were a visible share of what such worlds allocate.
   */
  private abductedByStep: Map<string, Map<string, AbductedDraw>> | null = null;
  private choicesByStep: Map<string, Map<string, string>> | null = null;

  /** step -> key -> abducted draw (posterior mode). */
  get abducted(): ReadonlyMap<string, ReadonlyMap<string, AbductedDraw>> {
    return this.abductedByStep ?? NO_STEPS;
  }

  /** step -> key -> option chosen, filled while `recordChoices` is on. */
  get choices(): ReadonlyMap<string, ReadonlyMap<string, string>> {
    return this.choicesByStep ?? NO_STEPS;
  }

  /** The abducted draws of `step`, to add to. */
  abductedOf(step: string): Map<string, AbductedDraw> {
    const byStep = (this.abductedByStep ??= new Map());
    let forStep = byStep.get(step);
    if (!forStep) byStep.set(step, (forStep = new Map()));
    return forStep;
  }

  /** The recorded choices of `step`, to add to. */
  choicesOf(step: string): Map<string, string> {
    const byStep = (this.choicesByStep ??= new Map());
    let forStep = byStep.get(step);
    if (!forStep) byStep.set(step, (forStep = new Map()));
    return forStep;
  }
  /**
   * Draws made so far that depend on this world's noise beyond abduction: every draw except an
   * observed choice abducted in a factual run (whose outcome is the observation). A factual run
   * that adds none computes the same outputs in every world (see Replayer's factual template).
   */
  freshDraws = 0;

  /** The seed's two 32-bit lanes, split once (drawHash would split them on every draw). */
  private readonly seedLo: number;
  private readonly seedHi: number;

  constructor(readonly seed: number) {
    [this.seedLo, this.seedHi] = seedLanes(seed);
  }

  /** unitFromHash(drawHash(seed, step, key, option)). */
  uniform(step: string, key: string, option: string): number {
    return unitFromHash(hash53Address(step, key, option, this.seedLo, this.seedHi));
  }

  /**
   * The address of (step, key) in this world, for uniforms of several options:
   * `unitFromHash(address(step, key).suffix(option))` is `uniform(step, key, option)`. The object
   * is shared by every world and valid until the next call: read it at once.
   */
  address(step: string, key: string): AddressPrefix {
    return SHARED_PREFIX.of(step, key, this.seedLo, this.seedHi);
  }
}

/** See WorldNoise.address (draws are synchronous, so one object serves them all). */
const SHARED_PREFIX = new AddressPrefix();

/** How a step's noise handle treats categorical draws. */
export interface StepNoiseOptions {
  /** Observed choices of this step (key -> option) to abduct from; set only in the factual run of a posterior world. */
  abductFrom?: Readonly<Record<string, string>>;
  /** Record every categorical choice into `world.choices` (to write traces). */
  recordChoices?: boolean;
}

function checkKey(key: unknown, what: string): string {
  if (key === undefined) return DEFAULT_KEY;
  if (typeof key !== 'string') throw new TypeError(`noise.${what}: key must be a string, got ${typeof key}`);
  return key;
}

/**
 * The `noise` handle a step receives: addressed draws for one step in one world. Handles are made
 * for every step of every world replayed, so a handle is one small object whose methods live on
 * the class prototype (a literal of methods allocated a closure per method per handle, a tenth of
 * the garbage of a replay in fresh worlds). Call the draws as methods (`noise.uniform()`).
 */
class StepNoise implements Noise {
  constructor(
    private readonly world: WorldNoise,
    private readonly step: string,
    private readonly opts: StepNoiseOptions,
  ) {}

  uniform(key?: string): number {
    this.world.freshDraws++;
    return this.world.uniform(this.step, checkKey(key, 'uniform'), SLOT_UNIFORM);
  }

  normal(key?: string): number {
    this.world.freshDraws++;
    const k = checkKey(key, 'normal');
    // Box-Muller on two addressed uniforms: exact, and one address pair per key.
    const r = Math.sqrt(-2 * Math.log(this.world.uniform(this.step, k, SLOT_NORMAL_RADIUS)));
    return r * Math.cos(2 * Math.PI * this.world.uniform(this.step, k, SLOT_NORMAL_ANGLE));
  }

  gumbel(key: string, option: string): number {
    this.world.freshDraws++;
    if (typeof option !== 'string') throw new TypeError('noise.gumbel: option must be a string');
    if (option.startsWith(RESERVED_PREFIX)) throw new RangeError(reservedMessage('gumbel', option));
    return gumbelDraw(this.world, this.step, checkKey(key, 'gumbel'), option);
  }

  categorical(logits: Readonly<Record<string, number>>, keyArg?: string): string {
    return categoricalDraw(this.world, this.step, this.opts, logits, keyArg);
  }

  bernoulli(p: number, key?: string): boolean {
    this.world.freshDraws++;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new RangeError(`noise.bernoulli: p must be in [0, 1], got ${String(p)}`);
    return this.world.uniform(this.step, checkKey(key, 'bernoulli'), SLOT_UNIFORM) < p;
  }

  int(n: number, key?: string): number {
    this.world.freshDraws++;
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`noise.int: n must be a positive integer, got ${String(n)}`);
    return Math.floor(this.world.uniform(this.step, checkKey(key, 'int'), SLOT_UNIFORM) * n);
  }

  choice<T>(items: readonly T[], key?: string): T {
    this.world.freshDraws++;
    if (!Array.isArray(items) || items.length === 0) throw new RangeError('noise.choice: needs a non-empty array');
    return items[Math.floor(this.world.uniform(this.step, checkKey(key, 'choice'), SLOT_UNIFORM) * items.length)];
  }
}

const NO_OPTIONS: StepNoiseOptions = Object.freeze({});

/** The `noise` handle step `step` receives in `world` (see StepNoise). */
export function createStepNoise(world: WorldNoise, step: string, opts: StepNoiseOptions = NO_OPTIONS): Noise {
  return new StepNoise(world, step, opts);
}

/** A step's Gumbel for (key, option): the abducted one if this world has it, else the addressed draw. */
function gumbelDraw(world: WorldNoise, step: string, key: string, option: string): number {
  const abducted = world.abducted.get(step)?.get(key);
  // Own properties only: an option named like an Object.prototype member ("constructor") has no abducted Gumbel.
  if (abducted && Object.hasOwn(abducted.gumbels, option)) return abducted.gumbels[option];
  return gumbelFromUniform(world.uniform(step, key, option));
}

/** Gumbel-max over the logits with this world's Gumbels (abducting them first in a posterior factual run). */
function categoricalDraw(world: WorldNoise, step: string, opts: StepNoiseOptions, logits: Readonly<Record<string, number>>, keyArg: string | undefined): string {
  const key = checkKey(keyArg, 'categorical');
  if (logits === null || typeof logits !== 'object') throw new TypeError('noise.categorical: logits must be an object of option -> number');
  const names = Object.keys(logits);
  if (names.length === 0) throw new RangeError('noise.categorical: logits has no options');
  let allMinusInfinity = true;
  for (const o of names) {
    const l = logits[o];
    // o.startsWith(RESERVED_PREFIX), without a call per option.
    if (o.charCodeAt(0) === RESERVED_CODE) throw new RangeError(reservedMessage('categorical', o));
    if (typeof l !== 'number' || Number.isNaN(l) || l === Infinity) {
      throw new RangeError(`noise.categorical: logit of "${o}" must be a finite number or -Infinity, got ${String(l)}`);
    }
    if (l !== -Infinity) allMinusInfinity = false;
  }
  if (allMinusInfinity) throw new RangeError('noise.categorical: every logit is -Infinity, so no option can be chosen');
  let chosen: string;
  const observed = abductIfObserved(world, step, opts, key, logits);
  if (observed !== undefined) {
    chosen = observed;
  } else {
    world.freshDraws++;
    const prior = world.abducted.get(step)?.get(key);
    if (prior && sameLogits(prior.logits, logits)) {
      // Unchanged logits reproduce the factual choice exactly, whatever rounding did to the Gumbels.
      chosen = prior.chosen;
    } else {
      // gumbelDraw per option, with the abducted draw looked up and the address hashed once.
      const gumbels = prior ? prior.gumbels : null;
      let address: AddressPrefix | null = null;
      chosen = names[0];
      let best = -Infinity;
      for (const o of names) {
        let g: number;
        if (gumbels !== null && Object.hasOwn(gumbels, o)) g = gumbels[o];
        else g = gumbelFromUniform(unitFromHash((address ??= world.address(step, key)).suffix(o)));
        const score = logits[o] + g;
        if (score > best) {
          best = score;
          chosen = o;
        }
      }
    }
  }
  if (opts.recordChoices) {
    world.choicesOf(step).set(key, chosen);
  }
  return chosen;
}

/** In the factual run of a posterior world: infer this draw's Gumbels from the observed choice. */
function abductIfObserved(world: WorldNoise, step: string, opts: StepNoiseOptions, key: string, logits: Readonly<Record<string, number>>): string | undefined {
  const from = opts.abductFrom;
  // Own properties only: a key named "constructor" must not read Object.prototype.
  if (!from || !Object.hasOwn(from, key)) return undefined;
  const observedChoice = from[key];
  const existing = world.abducted.get(step)?.get(key);
  if (existing) return undefined;
  abductDraw(world, step, key, logits, observedChoice);
  return observedChoice;
}

/**
 * Abducts the Gumbels of one observed choice in `world` and keeps them there: a pure function of
 * the world's addressed uniforms, the logits and the choice, so abducting the recorded logits of
 * one world's factual run in another world gives exactly what that world's own factual run would.
 */
export function abductDraw(world: WorldNoise, step: string, key: string, logits: Readonly<Record<string, number>>, chosen: string): void {
  world.abductedOf(step).set(key, { logits: { ...logits }, chosen, gumbels: abductedGumbels(world, step, key, logits, chosen) });
}

/** abductGumbels with this world's uniforms of (step, key), the address hashed once. */
function abductedGumbels(world: WorldNoise, step: string, key: string, logits: Readonly<Record<string, number>>, chosen: string): Record<string, number> {
  const address = world.address(step, key);
  return abductGumbels(logits, chosen, unitFromHash(address.suffix(SLOT_ABDUCT_MAX)), (o) => unitFromHash(address.suffix(o)));
}

/**
 * An abducted draw whose Gumbels are computed when first read. They are a pure function of the
 * world's addressed uniforms, the logits and the choice, so reading them later gives exactly what
 * abductDraw computes now; a world replayed for one coalition (independent sampling) reads only
 * the draws of the steps that run again with changed logits, often none.
 */
class DeferredAbduction implements AbductedDraw {
  private computed: Readonly<Record<string, number>> | null = null;

  constructor(
    private readonly world: WorldNoise,
    private readonly step: string,
    private readonly key: string,
    readonly logits: Readonly<Record<string, number>>,
    readonly chosen: string,
  ) {}

  get gumbels(): Readonly<Record<string, number>> {
    if (this.computed === null) this.computed = abductedGumbels(this.world, this.step, this.key, this.logits, this.chosen);
    return this.computed;
  }
}

/**
 * abductDraw for a draw already abducted once with these very logits and this choice (the factual
 * template of another world: see Replayer): nothing left to check, so the Gumbels wait until read.
 * `logits` must never change (it is kept, not copied).
 */
export function abductCheckedDraw(world: WorldNoise, step: string, key: string, logits: Readonly<Record<string, number>>, chosen: string): void {
  world.abductedOf(step).set(key, new DeferredAbduction(world, step, key, logits, chosen));
}

function sameLogits(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}
