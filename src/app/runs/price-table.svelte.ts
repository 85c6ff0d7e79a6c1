/**
 * Model prices for the run view's costs: per model, dollars per 1M input and output tokens,
 * entered by the user and kept in this browser (localStorage). None are built in: a model
 * without a price has no cost, and the view says how many steps that leaves out.
 */
import type { RecordedStep } from '../../runs/index.ts';

export interface ModelPrice {
  /** Per 1M input tokens. */
  input: number;
  /** Per 1M output tokens. */
  output: number;
}

const STORAGE_KEY = 'agentblame.model-prices';
const VERSION = 1;

function validPrice(value: unknown): value is ModelPrice {
  if (typeof value !== 'object' || value === null) return false;
  const { input, output } = value as Record<string, unknown>;
  return typeof input === 'number' && typeof output === 'number' && Number.isFinite(input) && Number.isFinite(output) && input >= 0 && output >= 0;
}

/** The prices in stored text; entries that are not a model's two non-negative prices are dropped (a hand-edited store). */
export function readPrices(text: string | null): Map<string, ModelPrice> {
  const out = new Map<string, ModelPrice>();
  if (!text) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return out;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== VERSION) return out;
  const prices = (parsed as { prices?: unknown }).prices;
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices)) return out;
  for (const [model, price] of Object.entries(prices)) if (validPrice(price)) out.set(model, { input: price.input, output: price.output });
  return out;
}

export function writePrices(prices: ReadonlyMap<string, ModelPrice>): string {
  return JSON.stringify({ version: VERSION, prices: Object.fromEntries(prices) });
}

/** A step's cost: its tokens at its model's price; null when it has no tokens, no model or no price. */
export function stepCost(step: Pick<RecordedStep, 'model' | 'usage'>, prices: ReadonlyMap<string, ModelPrice>): number | null {
  if (!step.usage || !step.model) return null;
  const price = prices.get(step.model);
  return price ? (step.usage.input * price.input + step.usage.output * price.output) / 1e6 : null;
}

/** One model request as the response store keeps it: the model asked, and the tokens its answer used. */
export interface PricedRequest {
  request: { model: string };
  response: { usage: { input: number; output: number } };
}

/** A study's cost: its requests' tokens at their models' prices, and the models without a price. */
export interface RequestsCost {
  /** Dollars for the priced requests; null when none is priced. */
  cost: number | null;
  requests: number;
  /** Requests whose model has no price (not in `cost`). */
  unpriced: number;
  /** The models without a price, sorted. */
  unpricedModels: string[];
  /** Every model asked, sorted: the ones a price panel offers. */
  models: string[];
}

/**
 * The cost of a study's model requests (each distinct request once, as the study's results name
 * them, whether this study sent it or the cache answered it): tokens x its model's price.
 */
export function requestsCost(requests: Iterable<PricedRequest>, prices: ReadonlyMap<string, ModelPrice>): RequestsCost {
  let cost = 0;
  let count = 0;
  let priced = 0;
  const models = new Set<string>();
  const unpricedModels = new Set<string>();
  for (const { request, response } of requests) {
    count++;
    models.add(request.model);
    const price = prices.get(request.model);
    if (!price) {
      unpricedModels.add(request.model);
      continue;
    }
    priced++;
    cost += (response.usage.input * price.input + response.usage.output * price.output) / 1e6;
  }
  return { cost: priced > 0 ? cost : null, requests: count, unpriced: count - priced, unpricedModels: [...unpricedModels].sort(), models: [...models].sort() };
}

// The report prints the study's cost too (src/report/sections/header.ts), in the same words.
export { formatCost } from '../../report/format.ts';

/** The price table of this browser: read once, written on every change. */
export class PriceTable {
  prices = $state.raw<ReadonlyMap<string, ModelPrice>>(new Map());
  #storage: Pick<Storage, 'getItem' | 'setItem'> | null;

  constructor(storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeLocalStorage()) {
    this.#storage = storage;
    try {
      this.prices = readPrices(storage?.getItem(STORAGE_KEY) ?? null);
    } catch {
      this.prices = new Map();
    }
  }

  /** Sets a model's prices (per 1M tokens); a negative or non-finite price is refused with a reason. */
  set(model: string, input: number, output: number): string | null {
    if (!validPrice({ input, output })) return `The prices of ${model} must be numbers of 0 or more (per 1M tokens).`;
    const next = new Map(this.prices);
    next.set(model, { input, output });
    return this.#save(next);
  }

  remove(model: string): void {
    const next = new Map(this.prices);
    next.delete(model);
    this.#save(next);
  }

  costOf = (step: Pick<RecordedStep, 'model' | 'usage'>): number | null => stepCost(step, this.prices);

  #save(next: Map<string, ModelPrice>): string | null {
    this.prices = next;
    try {
      this.#storage?.setItem(STORAGE_KEY, writePrices(next));
      return null;
    } catch {
      return 'The prices could not be kept in this browser (storage full or blocked); they hold for this page only.';
    }
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
