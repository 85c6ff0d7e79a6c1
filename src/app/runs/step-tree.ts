/**
 * The steps list as a tree: which rows are on show when subtrees are collapsed or only model and
 * tool calls are wanted, and each subtree's token totals. Steps come in depth-first order with
 * their depth (src/runs/build-run.ts), so a step's subtree is the contiguous run of deeper steps
 * after it: everything here is a linear pass, fine for runs of tens of thousands of steps.
 */
import type { RecordedRun, RecordedStep, TokenUsage } from '../../runs/index.ts';

/** For each step, the index just past its subtree (its last descendant + 1). */
export function subtreeEnds(steps: readonly Pick<RecordedStep, 'depth'>[]): number[] {
  const ends = new Array<number>(steps.length).fill(steps.length);
  const open: number[] = [];
  for (let i = 0; i < steps.length; i++) {
    while (open.length > 0 && steps[open[open.length - 1]].depth >= steps[i].depth) ends[open.pop()!] = i;
    open.push(i);
  }
  return ends;
}

/** A subtree's tokens (its own and its descendants'), and its cost when every priced step in it has a price. */
export interface SubtreeTotal extends TokenUsage {
  /** Steps in the subtree that report tokens. */
  counted: number;
  /** Summed cost of the steps that have one; null when no step in the subtree has a price. */
  cost: number | null;
  /** Steps with tokens but no price (their model is not in the price table). */
  unpriced: number;
}

/** Token (and cost) totals per subtree; `costOf` gives a step's cost, null when its model has no price. */
export function subtreeTotals(run: RecordedRun, ends: readonly number[], costOf: (step: RecordedStep) => number | null = () => null): SubtreeTotal[] {
  const n = run.steps.length;
  // Prefix sums, so each subtree's total is one subtraction.
  const input = new Float64Array(n + 1);
  const output = new Float64Array(n + 1);
  const counted = new Float64Array(n + 1);
  const cost = new Float64Array(n + 1);
  const priced = new Float64Array(n + 1);
  const unpriced = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const s = run.steps[i];
    const c = s.usage ? costOf(s) : null;
    input[i + 1] = input[i] + (s.usage?.input ?? 0);
    output[i + 1] = output[i] + (s.usage?.output ?? 0);
    counted[i + 1] = counted[i] + (s.usage ? 1 : 0);
    cost[i + 1] = cost[i] + (c ?? 0);
    priced[i + 1] = priced[i] + (c === null ? 0 : 1);
    unpriced[i + 1] = unpriced[i] + (s.usage && c === null ? 1 : 0);
  }
  return run.steps.map((_, i) => {
    const e = ends[i];
    return {
      input: input[e] - input[i],
      output: output[e] - output[i],
      counted: counted[e] - counted[i],
      cost: priced[e] - priced[i] > 0 ? cost[e] - cost[i] : null,
      unpriced: unpriced[e] - unpriced[i],
    };
  });
}

/** Model and tool calls: what "only model and tool calls" keeps. */
export function isCall(step: Pick<RecordedStep, 'kind'>): boolean {
  return step.kind === 'llm' || step.kind === 'tool';
}

/** One row on show: the step's index in the run, its indent, and whether it has rows under it to collapse. */
export interface TreeRow {
  index: number;
  level: number;
  /** The step has rows under it (in the current filter); null: a leaf. */
  expanded: boolean | null;
}

/**
 * The rows on show: collapsed steps hide their subtrees; with `onlyCalls`, steps that are neither
 * model nor tool calls are left out (their calls are lifted to the nearest call above them) and
 * do not hide what is under them.
 */
export function treeRows(run: RecordedRun, ends: readonly number[], collapsed: ReadonlySet<string>, onlyCalls: boolean): TreeRow[] {
  const steps = run.steps;
  const rows: TreeRow[] = [];
  // Shown ancestors of the current step: their index and subtree end.
  const shownOpen: number[] = [];
  // Calls from each step onwards, so "has rows under it" is one subtraction in the filtered view.
  const calls = new Int32Array(steps.length + 1);
  for (let i = steps.length - 1; i >= 0; i--) calls[i] = calls[i + 1] + (isCall(steps[i]) ? 1 : 0);
  let i = 0;
  while (i < steps.length) {
    while (shownOpen.length > 0 && ends[shownOpen[shownOpen.length - 1]] <= i) shownOpen.pop();
    const step = steps[i];
    if (onlyCalls && !isCall(step)) {
      i++;
      continue;
    }
    const below = onlyCalls ? calls[i + 1] - calls[ends[i]] : ends[i] - i - 1;
    const closed = below > 0 && collapsed.has(step.id);
    rows.push({ index: i, level: onlyCalls ? shownOpen.length : step.depth, expanded: below > 0 ? !closed : null });
    if (closed) {
      i = ends[i];
      continue;
    }
    shownOpen.push(i);
    i++;
  }
  return rows;
}

/** The step's parent on show in `rows` (the nearest earlier row one level up), or null at the top. */
export function parentRow(rows: readonly TreeRow[], position: number): number | null {
  const level = rows[position]?.level ?? 0;
  for (let k = position - 1; k >= 0; k--) if (rows[k].level < level) return k;
  return null;
}
