import type { BatchResult } from '../engine/types.ts';
import { formatCount, formatInterval, formatNumber, formatPercent } from './format.ts';

/** Steps within this of the top mean Shapley are tied with it (they print the same to 3 decimals, or closer). */
const TIE = 5e-4;

/** "a", "a and b", "a, b and c". */
function names(steps: readonly string[]): string {
  return steps.length <= 1 ? (steps[0] ?? '') : `${steps.slice(0, -1).join(', ')} and ${steps[steps.length - 1]}`;
}

/**
 * The batch's one-line finding, the same in the workbench and the report: the most blamed step
 * (every step tied with it named together: "Most blamed: planner and retriever, 0.417"), its mean
 * Shapley with its interval when sampling left one, and the step whose fix alone resolves most
 * failures; when no step's blame is positive, that no step is blamed and why. Null before any
 * failure has a value.
 */
export function batchHeadline(batch: BatchResult): string | null {
  const finite = batch.steps.filter((s) => Number.isFinite(s.meanShapley));
  if (finite.length === 0 || batch.analyzed === 0) return null;
  const best = Math.max(...finite.map((s) => s.meanShapley));
  const value = (v: number) => formatNumber(v, 3);
  // No step with positive blame: naming the "most blamed" of steps at 0.000 would read as a finding.
  if (best < TIE) return noBlame(batch, value(best));
  const tied = finite.filter((s) => best - s.meanShapley < TIE);
  const top = tied[0];
  // Tied steps have intervals of their own; the value they share is what the line is about.
  const shownInterval = tied.length === 1 ? ` ${formatInterval(top.ci, value)}` : '';
  const first = `Most blamed: ${names(tied.map((s) => s.step))}, ${value(top.meanShapley)}${shownInterval}${tied.length > 1 ? ' each' : ''}`;
  const alone = finite.reduce((a, s) => (s.fixAloneRate > a.fixAloneRate ? s : a));
  if (!(alone.fixAloneRate > 0)) return `${first}; no single fix resolves a failure on its own`;
  const who = tied.length === 1 && alone.step === top.step ? 'it' : alone.step;
  return `${first}; fixing ${who} alone resolves ${formatPercent(alone.fixAloneRate)} of failures`;
}

/** The headline when no step has positive blame: why, when no combination of the fixes repairs any failure. */
function noBlame(batch: BatchResult, best: string): string {
  if (batch.unfixable >= batch.analyzed) {
    const which = batch.analyzed === 1 ? 'the analysed failure' : `any of the ${formatCount(batch.analyzed)} analysed failures`;
    return `No step is blamed: no combination of the fixes on offer repairs ${which}`;
  }
  return `No step is blamed: no step's mean Shapley is above ${best} (on average no fix repairs more than it breaks)`;
}

/** "1 failure", "2 failures"; mid-run "96 failures so far (120 of 400 cases analysed)". */
export function failureCount(failures: number, progress?: { done: number; total: number }): string {
  const noun = `${formatCount(failures)} ${failures === 1 ? 'failure' : 'failures'}`;
  if (!progress || progress.done >= progress.total) return noun;
  return `${noun} so far (${formatCount(progress.done)} of ${formatCount(progress.total)} cases analysed)`;
}
