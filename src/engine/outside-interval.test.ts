import { describe, expect, it } from 'vitest';
import { outsideTheirIntervals } from './outside-interval.ts';

describe('values outside their own interval', () => {
  const players = ['planner', 'calculator', 'reporter'];

  it('names each step whose value lies outside its interval, with both', () => {
    const r = { players, shapley: { planner: 0.7, calculator: 1.4, reporter: -1.1 }, ci: { planner: [-1, 1], calculator: [-1, 1], reporter: [-1, 1] } as Record<string, [number, number]> };
    expect(outsideTheirIntervals(r)).toEqual([
      { step: 'calculator', value: 1.4, ci: [-1, 1] },
      { step: 'reporter', value: -1.1, ci: [-1, 1] },
    ]);
  });

  it('names none for values inside (ends included), for exact results (no intervals), and for results without values', () => {
    expect(outsideTheirIntervals({ players, shapley: { planner: 1, calculator: -1, reporter: 0 }, ci: { planner: [-1, 1], calculator: [-1, 1], reporter: [0, 0] } })).toEqual([]);
    expect(outsideTheirIntervals({ players, shapley: { planner: 5, calculator: 0, reporter: 0 } })).toEqual([]);
    expect(outsideTheirIntervals({ players })).toEqual([]);
  });
});
