import { describe, expect, it } from 'vitest';
import { buildRun, type StepDraft } from '../../runs/index.ts';
import { cappedArrows, flowArrows, flowLinks } from './flow-arrows.ts';

const step = (id: string, start: number | null, end: number | null): StepDraft => ({ id, parent: null, name: id, kind: 'llm', start, end, model: null, usage: null, error: null, attributes: {} });
// Three timed steps: a [0, 100], b [100, 200], c [200, 400]; b quotes a, c quotes a and b.
const run = buildRun({ id: 'r', steps: [step('a', 0, 100), step('b', 100, 200), step('c', 200, 400)] });
const turns = new Map([
  [2, { quotes: [0, 1] }],
  [1, { quotes: [0] }],
  [0, { quotes: [] }],
]);
const LANE = { left: 100, width: 400 };
const ALL = { from: 0, to: 3 };

describe('flow arrows', () => {
  it('one link per quote, in the order of the quoting steps', () => {
    expect(flowLinks(turns)).toEqual([{ from: 0, to: 1 }, { from: 0, to: 2 }, { from: 1, to: 2 }]);
  });

  it('leave the quoted step\'s end and reach the quoting step\'s start, row centre to row centre', () => {
    const arrows = flowArrows(run, flowLinks(turns), [0, 1, 2], { start: 0, end: 400 }, LANE, 30, ALL);
    // a ends at 100 of 400 ms: a quarter across the 400 px lane from 100 px; b starts there too, one row down.
    expect(arrows[0]).toEqual({ from: 0, to: 1, d: 'M200 15 C212 15 188 45 200 45' });
    // To c (starts at 200 ms: half across), two rows down, bowing by half the distance across.
    expect(arrows[1].d).toBe('M200 15 C250 15 250 75 300 75');
  });

  it('skip links whose rows are hidden, and those wholly outside the rendered rows', () => {
    expect(flowArrows(run, flowLinks(turns), [0, -1, 1], { start: 0, end: 400 }, LANE, 30, ALL).map((a) => [a.from, a.to])).toEqual([[0, 2]]);
    // Rows 0..1 rendered: the link from row 1 to row 2 still crosses them; none is wholly below.
    expect(flowArrows(run, flowLinks(turns), [0, 1, 2], { start: 0, end: 400 }, LANE, 30, { from: 2, to: 3 }).map((a) => [a.from, a.to])).toEqual([[0, 2], [1, 2]]);
    expect(flowArrows(run, [{ from: 0, to: 1 }], [0, 1, 2], { start: 0, end: 400 }, LANE, 30, { from: 2, to: 3 })).toEqual([]);
  });

  it('point at the lane\'s edge for a step outside the zoomed window, and its left edge for untimed steps', () => {
    const zoomed = flowArrows(run, [{ from: 1, to: 2 }], [0, 1, 2], { start: 0, end: 100 }, LANE, 30, ALL);
    expect(zoomed[0].d).toMatch(/^M500 45 .* 500 75$/);
    const untimed = buildRun({ id: 'u', steps: [step('x', null, null), step('y', null, null)] });
    expect(flowArrows(untimed, [{ from: 0, to: 1 }], [0, 1], null, LANE, 30, { from: 0, to: 2 })[0].d).toMatch(/^M100 15 .* 100 45$/);
  });

  it('past the cap, only the selected step\'s arrows are drawn', () => {
    const many = Array.from({ length: 10 }, (_, k) => ({ from: k, to: k + 1, d: '' }));
    expect(cappedArrows(many, 3, 20)).toEqual({ arrows: many, capped: false });
    expect(cappedArrows(many, 3, 5)).toEqual({ arrows: [many[2], many[3]], capped: true });
  });
});
