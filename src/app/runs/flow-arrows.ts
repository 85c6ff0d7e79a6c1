/**
 * Flow arrows on the run view's waterfall, as Perfetto draws flows: for each "quotes" link of the
 * replay's dependency graph (turn B's request quotes turn A's answer or tool result; run-turns.ts,
 * from the replay's own turnLinks) an arrow from the end of A's bar to the start of B's, row
 * centre to row centre. Only links whose rows are both on show (not in a collapsed subtree, not
 * filtered out) and that cross the rows rendered are drawn.
 */
import type { RecordedRun } from '../../runs/index.ts';
import type { TimeWindow } from './timeline.ts';

export interface FlowLink {
  /** Step index of the quoted turn (A). */
  from: number;
  /** Step index of the turn whose request quotes it (B). */
  to: number;
}

export interface FlowArrow extends FlowLink {
  /** SVG path, in px of the step list's content (x from its left edge, y from its top). */
  d: string;
}

/** Where the waterfall's lane lies across a row, in px. */
export interface Lane {
  left: number;
  width: number;
}

/** Every quotes link, quoted step first, in the order of the quoting steps. */
export function flowLinks(turns: ReadonlyMap<number, { quotes: readonly number[] }>): FlowLink[] {
  const links: FlowLink[] = [];
  for (const [to, turn] of [...turns].sort((a, b) => a[0] - b[0])) for (const from of turn.quotes) links.push({ from, to });
  return links;
}

/** Where time `t` falls across the window, 0..1 (clamped: a step outside the window points at its edge). */
function across(t: number | null, view: TimeWindow | null): number {
  if (t === null || view === null) return 0;
  const width = view.end - view.start;
  return width > 0 ? Math.min(1, Math.max(0, (t - view.start) / width)) : 0;
}

/**
 * The arrows to draw: links whose two rows are on show (`positions[step]` >= 0) and whose span of
 * rows meets the rendered ones [rendered.from, rendered.to). An arrow leaves A's end time and
 * reaches B's start time (a step without times: the lane's left edge), as a curve that bows right.
 */
export function flowArrows(
  run: RecordedRun,
  links: readonly FlowLink[],
  positions: ArrayLike<number>,
  view: TimeWindow | null,
  lane: Lane,
  rowHeight: number,
  rendered: { from: number; to: number },
): FlowArrow[] {
  const arrows: FlowArrow[] = [];
  for (const link of links) {
    const a = positions[link.from];
    const b = positions[link.to];
    if (a === undefined || b === undefined || a < 0 || b < 0) continue;
    if (Math.max(a, b) < rendered.from || Math.min(a, b) >= rendered.to) continue;
    const from = run.steps[link.from];
    const to = run.steps[link.to];
    const x1 = lane.left + lane.width * across(from.end ?? from.start, view);
    const x2 = lane.left + lane.width * across(to.start, view);
    const y1 = a * rowHeight + rowHeight / 2;
    const y2 = b * rowHeight + rowHeight / 2;
    const bow = Math.max(12, Math.abs(x2 - x1) / 2);
    const r = (n: number) => Math.round(n * 10) / 10;
    arrows.push({ ...link, d: `M${r(x1)} ${r(y1)} C${r(x1 + bow)} ${r(y1)} ${r(x2 - bow)} ${r(y2)} ${r(x2)} ${r(y2)}` });
  }
  return arrows;
}

/** Most arrows drawn at once; past it only the selected step's are (a transcript run quotes every earlier turn). */
export const MAX_FLOW_ARROWS = 300;

/** The arrows within MAX_FLOW_ARROWS: all of them, or only those of the selected step (`capped`). */
export function cappedArrows(arrows: readonly FlowArrow[], selected: number, max = MAX_FLOW_ARROWS): { arrows: readonly FlowArrow[]; capped: boolean } {
  if (arrows.length <= max) return { arrows, capped: false };
  return { arrows: arrows.filter((a) => a.from === selected || a.to === selected).slice(0, max), capped: true };
}
