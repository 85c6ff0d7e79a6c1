/**
 * Waterfall geometry: where each step's bar sits on the run's time axis, in percent of the run's
 * span. Steps without times (Who&When turns) get no bar.
 */
import type { RecordedRun } from '../../runs/types.ts';

export interface Bar {
  left: number;
  width: number;
}

export function runSpan(run: RecordedRun): { start: number; end: number } | null {
  let start = Infinity;
  let end = -Infinity;
  for (const s of run.steps) {
    if (s.start !== null) start = Math.min(start, s.start);
    if (s.end !== null) end = Math.max(end, s.end);
    else if (s.start !== null) end = Math.max(end, s.start);
  }
  return Number.isFinite(start) && Number.isFinite(end) ? { start, end } : null;
}

/** Bars per step index (null where the step has no start); a point step gets a sliver. */
export function timelineBars(run: RecordedRun): (Bar | null)[] {
  const span = runSpan(run);
  if (span === null) return run.steps.map(() => null);
  const total = Math.max(span.end - span.start, 1e-6);
  return run.steps.map((s) => {
    if (s.start === null) return null;
    const left = ((s.start - span.start) / total) * 100;
    const width = s.end === null ? 0 : ((s.end - s.start) / total) * 100;
    return { left: Math.min(100, Math.max(0, left)), width: Math.max(0.3, Math.min(100 - left, width)) };
  });
}

/** A step's time as ISO text, or '' for one a Date cannot show (importers refuse those; this is a last guard). */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isFinite(date.getTime()) ? date.toISOString() : '';
}

/** Latency as people read it: 850 ms, 2.35 s, 1 min 12 s. */
export function formatLatency(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The rows to render of a long scrolled list (fixed row height), with a margin either side. */
export function visibleRange(scrollTop: number, viewport: number, rowHeight: number, count: number, margin = 10): { from: number; to: number } {
  const from = Math.max(0, Math.floor(scrollTop / rowHeight) - margin);
  const to = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + margin);
  return { from, to: Math.max(from, to) };
}

/** The chain of ancestors of a step, root first (a visited set guards against any loop). */
export function parentChain(run: RecordedRun, stepId: string): RecordedRun['steps'] {
  const byId = new Map(run.steps.map((s) => [s.id, s]));
  const chain: RecordedRun['steps'] = [];
  const seen = new Set<string>();
  for (let step = byId.get(stepId); step && !seen.has(step.id); step = step.parent === null ? undefined : byId.get(step.parent)) {
    seen.add(step.id);
    chain.push(step);
  }
  return chain.reverse();
}
