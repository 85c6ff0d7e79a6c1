/**
 * `--compare SESSION`: the results just printed set beside an earlier session file's (or
 * report's), through the engine's compareStudies, so the command and the workbench's Compare view
 * give the same numbers (docs/compare.md).
 */
import { compareStudies, type StudyComparison } from '../engine/compare-studies.ts';
import type { BatchResult, CaseResult } from '../engine/types.ts';
import type { Session } from '../session/types.ts';
import { studySideOf } from '../session/study-side.ts';
import { printable } from './printable.ts';

/** The comparison as printed with --json (`compare`) and passed to the report. */
export interface NamedComparison {
  /** The earlier study's session name. */
  against: string;
  comparison: StudyComparison;
}

/** Compares the analysed results (`after`) with the earlier session. */
export function compareWithSession(earlier: Session, after: { results: readonly CaseResult[]; batch: BatchResult; delta: number }): NamedComparison {
  return { against: earlier.name, comparison: compareStudies(studySideOf(earlier), after, after.delta) };
}

const f3 = (x: number | null): string => (x === null || Number.isNaN(x) ? '-' : (x >= 0 ? '+' : '') + x.toFixed(3));
const pp = (x: number | null): string => (x === null ? '-' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} pp`);

/** Columns padded to their widest cell: the first left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** The comparison as tables: per step, then the cases that moved most (at most `maxCases`). */
export function formatComparison({ against, comparison: c }: NamedComparison, maxCases = 10): string {
  const head = `compared with "${printable(against)}": ${c.before.analyzed} analysed failure${c.before.analyzed === 1 ? '' : 's'} before, ${c.after.analyzed} now, ${c.shared} in both; intervals at ${(100 * (1 - c.delta)).toFixed(0)} %, ${c.paired ? 'paired by case' : 'unpaired (the failures differ)'}`;
  const rows = c.steps.map((s) => [
    printable(s.step),
    f3(s.before?.meanShapley ?? null),
    f3(s.after?.meanShapley ?? null),
    f3(s.shapleyChange),
    s.ci ? `[${f3(s.ci[0])}, ${f3(s.ci[1])}]` : '-',
    pp(s.fixAloneChange),
    s.before && s.after ? `${s.before.rank} -> ${s.after.rank}` : '-',
  ]);
  const out = [head, table(['step', 'Shapley before', 'now', 'change', 'CI', 'fixing alone resolves', 'rank'], rows)];
  // Two studies of other pipelines: every change is '-', which says nothing unless it is said why.
  if (!c.steps.some((s) => s.shapleyChange !== null)) out.push("no step in common (other pipelines?), so no step's blame can be compared: compare with a session of the same pipeline");
  const moved = c.cases.filter((x) => x.movement > 0).slice(0, maxCases);
  if (moved.length > 0) {
    out.push(`cases whose blame moved most:\n${table(['case', 'moved (sum |change|)', 'most in step', 'before', 'now'], moved.map((x) => [printable(x.id), x.movement.toFixed(3), printable(x.step), f3(x.before), f3(x.after)]))}`);
  } else {
    out.push('no shared case changed its blame');
  }
  return out.join('\n');
}
