/**
 * Waterfall geometry: where each step's bar sits on the run's time axis, in percent of the run's
 * span. Steps without times (Who&When turns) get no bar.
 */
import type { RecordedRun } from '../../runs/index.ts';

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

/** The part of the run's time axis on screen (epoch ms); the whole run unless zoomed. */
export interface TimeWindow {
  start: number;
  end: number;
}

/** The narrowest window: a microsecond, or a millionth of the run, whichever is wider. */
function minWidth(span: TimeWindow): number {
  return Math.max(1e-3, (span.end - span.start) / 1e6);
}

/** A window kept inside the run's span and at least the narrowest width. */
export function clampWindow(span: TimeWindow, start: number, width: number): TimeWindow {
  const total = Math.max(span.end - span.start, 1e-6);
  const w = Math.min(total, Math.max(minWidth(span), width));
  const s = Math.min(span.end - w, Math.max(span.start, start));
  return { start: s, end: s + w };
}

/** Zooms by `factor` (2 = twice as close) keeping the time under `anchor` (0..1 across the window) in place. */
export function zoomWindow(span: TimeWindow, window: TimeWindow, factor: number, anchor = 0.5): TimeWindow {
  const width = (window.end - window.start) / factor;
  const at = window.start + (window.end - window.start) * anchor;
  return clampWindow(span, at - width * anchor, width);
}

/** Pans by a fraction of the window's width (negative: earlier). */
export function panWindow(span: TimeWindow, window: TimeWindow, fraction: number): TimeWindow {
  const width = window.end - window.start;
  return clampWindow(span, window.start + width * fraction, width);
}

/** Ruler ticks for the window: round steps (1, 2, 5 x 10^k ms) from the run's start, at % across the window. */
export function rulerTicks(span: TimeWindow, window: TimeWindow, target = 6): { at: number; label: string }[] {
  const width = window.end - window.start;
  if (!(width > 0)) return [];
  const raw = width / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((x) => x >= raw) ?? 10 * power;
  const ticks: { at: number; label: string }[] = [];
  const first = Math.ceil((window.start - span.start) / step) * step;
  for (let t = first; span.start + t <= window.end + step * 1e-9 && ticks.length <= target * 3; t += step) {
    ticks.push({ at: ((span.start + t - window.start) / width) * 100, label: t === 0 ? '0' : formatLatency(t) });
  }
  return ticks;
}

/** A ruler label placed on a ruler of known width: its box starts at its tick, or ends there near the right edge. */
export interface PlacedTick {
  at: number;
  label: string;
  align: 'start' | 'end';
}

/**
 * The ticks whose labels fit: each label's box (estimated at `charPx` per character, generously)
 * starts at its tick, or ends at it where it would pass the ruler's right edge; a label that fits
 * neither way, or would touch the label before it, is left out. So no label is clipped or overlaps
 * another, on a phone's narrow lane as on a desktop's.
 */
export function placeRulerLabels(ticks: { at: number; label: string }[], widthPx: number, charPx = 6.5, gapPx = 6): PlacedTick[] {
  const placed: PlacedTick[] = [];
  let right = -Infinity;
  for (const t of ticks) {
    const x = (t.at / 100) * widthPx;
    const w = t.label.length * charPx + 4;
    const box = x + w <= widthPx ? { from: x, to: x + w, align: 'start' as const } : x - w >= 0 ? { from: x - w, to: x, align: 'end' as const } : null;
    if (box === null || box.from < right + gapPx) continue;
    placed.push({ at: t.at, label: t.label, align: box.align });
    right = box.to;
  }
  return placed;
}

/** How many ticks to ask of a ruler this wide (at least two: its start and one more; placeRulerLabels drops what does not fit). */
export function rulerTarget(widthPx: number, spacingPx = 64): number {
  return Math.max(2, Math.min(10, Math.floor(widthPx / spacingPx)));
}

/**
 * Bars per step index (null where the step has no start, or lies outside the window); a point
 * step gets a sliver. Percent of the window, so a zoomed-in window shows short steps as wide bars.
 */
export function timelineBars(run: RecordedRun, window?: TimeWindow): (Bar | null)[] {
  const span = runSpan(run);
  if (span === null) return run.steps.map(() => null);
  const view = window ?? span;
  const total = Math.max(view.end - view.start, 1e-6);
  return run.steps.map((s) => {
    if (s.start === null) return null;
    const end = s.end ?? s.start;
    if (end < view.start || s.start > view.end) return null;
    const left = ((s.start - view.start) / total) * 100;
    const right = ((end - view.start) / total) * 100;
    const from = Math.min(100, Math.max(0, left));
    const to = Math.min(100, Math.max(0, right));
    return { left: from, width: Math.max(0.3, to - from) };
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
