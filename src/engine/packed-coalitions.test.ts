import { describe, expect, it } from 'vitest';
import { joinCoalitions, packCoalitions, splitCoalitions, unpackCoalitions } from './packed-coalitions.ts';
import type { AttributedCaseResult, CaseResult } from './types.ts';
import { testResult } from './testing/results.ts';

const players = ['plan', 'search', 'read', 'draft', 'check', 'cite', 'tone', 'send'];

/** Every coalition of the players, names in player order, as the engine lists them. */
function table(values: (mask: number) => number): { fixed: string[]; value: number }[] {
  return Array.from({ length: 2 ** players.length }, (_, mask) => ({ fixed: players.filter((_, i) => (mask >> i) & 1), value: values(mask) }));
}

/** An attributed failure over the players with this table; fixedOutputs comes after the table, so key order around it is tested. */
function attributed(coalitions: { fixed: string[]; value: number }[]): CaseResult {
  const shapley = Object.fromEntries(players.map((p) => [p, 0.125]));
  return testResult({ id: 'c1', players: [...players], shapley, cost: 3, evaluations: 256, coalitions, fixedOutputs: { plan: 'x' } });
}

describe('packed coalition tables', () => {
  it('unpack gives back the same table, value bits included (-0, NaN, tiny and huge numbers)', () => {
    const odd = [-0, NaN, Number.MIN_VALUE, 1e308, 0.1 + 0.2, -1 / 3];
    const original = table((mask) => odd[mask % odd.length] * (mask + 1));
    const packed = packCoalitions(players, original)!;
    expect(packed).not.toBeNull();
    const back = unpackCoalitions(players, packed);
    expect(back).toEqual(original);
    for (let k = 0; k < original.length; k++) expect(Object.is(back[k].value, original[k].value)).toBe(true);
  });

  it('a result split and joined is the same object text, key order included, also after a structured clone', () => {
    const result = attributed(table((mask) => mask / 255));
    const split = splitCoalitions(result);
    expect(split.coalitions).not.toBeNull();
    expect(split.result.coalitions).toBeUndefined();
    const cloned = structuredClone(split);
    const joined = joinCoalitions(cloned.result, cloned.coalitions);
    expect(JSON.stringify(joined)).toBe(JSON.stringify(result));
    expect(Object.keys(joined)).toEqual(Object.keys(result));
  });

  it('keeps tables it could not give back exactly as they are', () => {
    expect(packCoalitions(players, [{ fixed: ['search', 'plan'], value: 1 }])).toBeNull(); // out of order
    expect(packCoalitions(players, [{ fixed: ['plan', 'plan'], value: 1 }])).toBeNull(); // twice
    expect(packCoalitions(players, [{ fixed: ['nobody'], value: 1 }])).toBeNull(); // unknown step
    expect(packCoalitions(['a', 'a'], [{ fixed: ['a'], value: 1 }])).toBeNull(); // players not unique
    expect(packCoalitions(players, [{ fixed: ['plan'], value: '1' as unknown as number }])).toBeNull();
    const many = Array.from({ length: 32 }, (_, i) => `s${i}`);
    expect(packCoalitions(many, [{ fixed: ['s0'], value: 1 }])).toBeNull();
    const odd = attributed([{ fixed: ['search', 'plan'], value: 1 }]);
    expect(splitCoalitions(odd)).toEqual({ result: odd, coalitions: null });
  });

  it('uses all 31 bits of a mask', () => {
    const many = Array.from({ length: 31 }, (_, i) => `s${i}`);
    const original = [{ fixed: [...many], value: 2 }, { fixed: ['s30'], value: 3 }, { fixed: [], value: 4 }];
    expect(unpackCoalitions(many, packCoalitions(many, original)!)).toEqual(original);
  });

  it('leaves results without a table alone', () => {
    const passed: CaseResult = { id: 'p', players, method: 'exact', failed: false, vEmpty: 1, vAll: 1, cost: 0, evaluations: 0, permutations: 0 };
    expect(splitCoalitions(passed)).toEqual({ result: passed, coalitions: null });
    expect(joinCoalitions(passed, null)).toBe(passed);
  });
});

describe('a table that arrived packed', () => {
  it('is stored packed again as it came (no second packing), and a replaced table is packed afresh', () => {
    const result = attributed(table((mask) => mask));
    const { result: bare, coalitions } = splitCoalitions(result);
    const joined = joinCoalitions(bare, coalitions);
    expect(splitCoalitions(joined).coalitions).toBe(coalitions);
    const replaced = { ...joined, coalitions: table(() => 1) } as AttributedCaseResult;
    const again = splitCoalitions(replaced).coalitions!;
    expect(again).not.toBe(coalitions);
    expect([...again.values]).toEqual(new Array(256).fill(1));
  });
});

describe('a joined result', () => {
  it('reads, spreads, clones and prints like the original, and its table is only unpacked when read', () => {
    const result = attributed(table((mask) => mask / 7));
    const { result: bare, coalitions } = splitCoalitions(result);
    const joined = joinCoalitions(bare, coalitions);
    expect(typeof Object.getOwnPropertyDescriptor(joined, 'coalitions')?.get).toBe('function');
    expect(structuredClone(joined)).toEqual(result);
    expect(JSON.stringify({ ...joined })).toBe(JSON.stringify(result));
    expect(Object.keys(joined)).toEqual(Object.keys(result));
    expect(joined.coalitions).toBe(joined.coalitions);
    expect(joined.coalitions).toEqual(result.coalitions);
  });
});
