import { describe, expect, it } from 'vitest';
import { buildRun } from '../../runs/build-run.ts';
import type { StepDraft } from '../../runs/types.ts';
import { formatLatency, parentChain, timelineBars, visibleRange } from './timeline.ts';

const step = (id: string, parent: string | null, start: number | null, end: number | null): StepDraft => ({ id, parent, name: id, kind: 'other', start, end, model: null, usage: null, error: null, attributes: {} });

describe('timeline', () => {
  it('places bars in percent of the run span; untimed steps get none', () => {
    const run = buildRun({ id: 'r', steps: [step('a', null, 1000, 2000), step('b', 'a', 1250, 1750), step('c', 'a', 1500, null)] });
    expect(timelineBars(run)).toEqual([{ left: 0, width: 100 }, { left: 25, width: 50 }, { left: 50, width: 0.3 }]);
    expect(timelineBars(buildRun({ id: 'r', steps: [step('x', null, null, null)] }))).toEqual([null]);
  });
  it('formats latency', () => {
    expect([formatLatency(0.5), formatLatency(850), formatLatency(2350), formatLatency(72_000)]).toEqual(['0.50 ms', '850 ms', '2.35 s', '1 min 12 s']);
  });
  it('renders only the visible rows of a long list, with a margin', () => {
    expect(visibleRange(0, 300, 30, 1000)).toEqual({ from: 0, to: 20 });
    expect(visibleRange(3000, 300, 30, 1000)).toEqual({ from: 90, to: 120 });
    expect(visibleRange(29_900, 300, 30, 1000)).toEqual({ from: 986, to: 1000 });
  });
  it('lists the parent chain root first', () => {
    const run = buildRun({ id: 'r', steps: [step('a', null, 0, 3), step('b', 'a', 1, 2), step('c', 'b', 1, 2)] });
    expect(parentChain(run, 'c').map((s) => s.id)).toEqual(['a', 'b', 'c']);
  });
});
