import { describe, expect, it } from 'vitest';
import { PriceTable, formatCost, readPrices, requestsCost, stepCost } from './price-table.svelte.ts';

function memory(initial: string | null = null) {
  let text = initial;
  return { getItem: () => text, setItem: (_: string, value: string) => void (text = value), text: () => text };
}

describe('the price table', () => {
  it('prices a step per 1M tokens, and none without a price, a model or tokens', () => {
    const prices = new Map([['gpt-4o-mini', { input: 0.15, output: 0.6 }]]);
    expect(stepCost({ model: 'gpt-4o-mini', usage: { input: 1_000_000, output: 500_000 } }, prices)).toBeCloseTo(0.45);
    expect(stepCost({ model: 'unknown-model', usage: { input: 10, output: 1 } }, prices)).toBeNull();
    expect(stepCost({ model: null, usage: { input: 10, output: 1 } }, prices)).toBeNull();
    expect(stepCost({ model: 'gpt-4o-mini', usage: null }, prices)).toBeNull();
  });

  it('has no prices built in, keeps what is set in the browser, and reads it back', () => {
    const storage = memory();
    const table = new PriceTable(storage);
    expect(table.prices.size).toBe(0);
    expect(table.set('m', 1, 2)).toBeNull();
    expect(table.costOf({ model: 'm', usage: { input: 1000, output: 1000 } })).toBeCloseTo(0.003);
    expect(new PriceTable(storage).prices.get('m')).toEqual({ input: 1, output: 2 });
    table.remove('m');
    expect(new PriceTable(storage).prices.size).toBe(0);
  });

  it('refuses a negative price, and drops bad stored entries without losing the good ones', () => {
    const table = new PriceTable(memory());
    expect(table.set('m', -1, 2)).toContain('0 or more');
    expect(table.set('m', Number.NaN, 2)).toContain('0 or more');
    expect(table.prices.size).toBe(0);
    const stored = JSON.stringify({ version: 1, prices: { good: { input: 1, output: 2 }, bad: { input: 'x', output: 2 }, neg: { input: -1, output: 0 }, __proto__: { input: 1, output: 1 } } });
    expect([...readPrices(stored).keys()]).toEqual(['good']);
    expect(readPrices('{not json').size).toBe(0);
    expect(readPrices(JSON.stringify({ version: 99, prices: { good: { input: 1, output: 2 } } })).size).toBe(0);
  });

  it('keeps prices for the page when the browser will not store them', () => {
    const table = new PriceTable({ getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } });
    expect(table.set('m', 1, 1)).toContain('could not be kept');
    expect(table.prices.get('m')).toEqual({ input: 1, output: 1 });
  });

  it('formats small costs with enough digits', () => {
    expect(formatCost(12.345)).toBe('$12.35');
    expect(formatCost(0.0451)).toBe('$0.045');
    expect(formatCost(0.00042)).toBe('$0.00042');
  });

  it("prices a study's requests by their models, and names the models without a price", () => {
    const req = (model: string, input: number, output: number) => ({ request: { model }, response: { usage: { input, output } } });
    const prices = new Map([['gpt-4o-mini', { input: 0.15, output: 0.6 }]]);
    const cost = requestsCost([req('gpt-4o-mini', 1_000_000, 0), req('gpt-4o-mini', 0, 500_000), req('local-7b', 100, 10), req('other', 1, 1), req('local-7b', 5, 5)], prices);
    expect(cost.cost).toBeCloseTo(0.45);
    expect(cost).toMatchObject({ requests: 5, unpriced: 3, unpricedModels: ['local-7b', 'other'], models: ['gpt-4o-mini', 'local-7b', 'other'] });
    expect(requestsCost([req('local-7b', 100, 10)], prices)).toEqual({ cost: null, requests: 1, unpriced: 1, unpricedModels: ['local-7b'], models: ['local-7b'] });
    expect(requestsCost([], prices).cost).toBeNull();
  });
});
