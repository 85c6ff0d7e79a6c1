import { describe, expect, it } from 'vitest';
import type { RecordedRun, RecordedStep, StepKind } from '../../runs/index.ts';
import { parentRow, subtreeEnds, subtreeTotals, treeRows } from './step-tree.ts';

function step(id: string, depth: number, kind: StepKind, usage: [number, number] | null = null, model: string | null = null): RecordedStep {
  return { id, parent: null, name: id, kind, depth, start: null, end: null, model, usage: usage && { input: usage[0], output: usage[1] }, error: null, attributes: {} };
}

// agent
//   chain
//     llm-a (10+2)
//     http
//   tool
//   llm-b (5+1)
// other-root
const run: RecordedRun = {
  id: 'r',
  name: 'r',
  status: 'ok',
  steps: [step('agent', 0, 'agent'), step('chain', 1, 'chain'), step('llm-a', 2, 'llm', [10, 2], 'm1'), step('http', 2, 'other'), step('tool', 1, 'tool'), step('llm-b', 1, 'llm', [5, 1], 'm2'), step('other-root', 0, 'other')],
};
const ends = subtreeEnds(run.steps);
const ids = (rows: { index: number }[]) => rows.map((r) => run.steps[r.index].id);

describe('the steps as a tree', () => {
  it('finds where each subtree ends', () => {
    expect(ends).toEqual([6, 4, 3, 4, 5, 6, 7]);
  });

  it('totals the tokens of each subtree, and its cost only where a price is known', () => {
    const totals = subtreeTotals(run, ends, (s) => (s.model === 'm1' ? 0.5 : null));
    expect(totals[0]).toMatchObject({ input: 15, output: 3, counted: 2, cost: 0.5, unpriced: 1 });
    expect(totals[1]).toMatchObject({ input: 10, output: 2, counted: 1, cost: 0.5, unpriced: 0 });
    expect(totals[5]).toMatchObject({ input: 5, output: 1, cost: null, unpriced: 1 });
    expect(totals[6]).toMatchObject({ input: 0, output: 0, counted: 0, cost: null });
  });

  it('shows every step, each with its depth, until a subtree is collapsed', () => {
    const all = treeRows(run, ends, new Set(), false);
    expect(ids(all)).toEqual(run.steps.map((s) => s.id));
    expect(all.map((r) => r.expanded)).toEqual([true, true, null, null, null, null, null]);
    const folded = treeRows(run, ends, new Set(['chain']), false);
    expect(ids(folded)).toEqual(['agent', 'chain', 'tool', 'llm-b', 'other-root']);
    expect(folded[1]).toEqual({ index: 1, level: 1, expanded: false });
    expect(ids(treeRows(run, ends, new Set(['agent', 'chain']), false))).toEqual(['agent', 'other-root']);
    // Collapsing a leaf hides nothing.
    expect(ids(treeRows(run, ends, new Set(['tool']), false))).toHaveLength(7);
  });

  it('keeps only model and tool calls, lifted to the nearest call above them', () => {
    const calls = treeRows(run, ends, new Set(), true);
    expect(ids(calls)).toEqual(['llm-a', 'tool', 'llm-b']);
    expect(calls.map((r) => r.level)).toEqual([0, 0, 0]);
    // A collapsed step the filter leaves out does not hide the calls under it.
    expect(ids(treeRows(run, ends, new Set(['agent']), true))).toEqual(['llm-a', 'tool', 'llm-b']);
  });

  it('finds a row\'s parent among the rows on show', () => {
    const all = treeRows(run, ends, new Set(), false);
    expect(parentRow(all, 2)).toBe(1);
    expect(parentRow(all, 4)).toBe(0);
    expect(parentRow(all, 0)).toBeNull();
  });
});
