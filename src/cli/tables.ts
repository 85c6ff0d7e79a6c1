import type { AnalysisSettings, BatchResult, CaseResult } from '../engine/types.ts';
import { unfixableText } from '../engine/unfixable-text.ts';
import { ownValue } from '../engine/named-record.ts';
import { printable } from './printable.ts';
import { BUDGET_SKIPPED_LABELS, NOT_COMPUTED_WITHIN_BUDGET, PER_PLAYER_FIELDS, RESULT_FIELDS, type ResultFieldSpec } from '../engine/result-fields.ts';
import { repairsLine } from './repairs-output.ts';
import { outsideTheirIntervals } from '../engine/outside-interval.ts';

const f3 = (x: number | undefined): string => (typeof x !== 'number' || Number.isNaN(x) ? '-' : (x >= 0 ? '+' : '') + x.toFixed(3));
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** The per-step table's columns: the result fields the field table gives a column, in their places. */
const STEP_COLUMNS = PER_PLAYER_FIELDS.flatMap((field) => {
  const column: ResultFieldSpec['column'] = RESULT_FIELDS[field].column;
  return column ? [{ field, ...column }] : [];
}).sort((a, b) => a.at - b.at);

/** A step's value (or interval) in a column; '-' when the result has none for the step. */
function stepCell(value: number | readonly [number, number] | undefined): string {
  if (typeof value === 'object') return `[${f3(value[0])}, ${f3(value[1])}]`;
  return f3(value);
}

/** The parts of a case a budget left out, as a line of the case's block (null when none). */
export function notComputedLine(r: CaseResult): string | null {
  if (!r.notComputed?.length) return null;
  return `${NOT_COMPUTED_WITHIN_BUDGET}: ${r.notComputed.map((part) => BUDGET_SKIPPED_LABELS[part]).join(', ')} (a larger --budget computes them)`;
}

/** The steps whose sampled Shapley value lies outside its own interval (engine/outside-interval.ts), as a line of the case's block (null when none). */
export function outsideIntervalLine(r: CaseResult): string | null {
  const outside = outsideTheirIntervals(r).map((o) => `${printable(o.step)} ${f3(o.value)} [${f3(o.ci[0])}, ${f3(o.ci[1])}]`);
  if (outside.length === 0) return null;
  return `outside ${outside.length === 1 ? 'its interval' : 'their intervals'}: ${outside.join(', ')} (too few samples: the estimate is still unsettled, the interval is what is known; a larger --budget narrows both)`;
}

/**
 * One case as a readable block: Shapley beside the baselines. `budget`: the Monte Carlo budget of
 * the settings, so the head says what the case spent against it.
 */
export function formatCase(r: CaseResult, budget = Infinity): string {
  if (r.error) return `case ${printable(r.id)}: ERROR ${printable(r.error)}`;
  // v(no fix) and v(all fixes) always run and the last coalition asked may pass the budget (docs/method.md, Budget): said where the cost is over it.
  const spent = r.method === 'mc' && Number.isFinite(budget) ? `cost ${r.cost} of budget ${budget}${r.cost > budget ? ' (over it: v(no fix) and v(all fixes) always run, and the last coalition asked may pass it)' : ''}` : `cost ${r.cost}`;
  const head = `case ${printable(r.id)}: ${r.failed ? 'failed' : 'passed'}  v(no fix)=${f3(r.vEmpty)}  v(all fixes)=${f3(r.vAll)}  [${r.method}${r.estimator ? ` (${r.estimator})` : ''}, ${r.evaluations} coalitions, ${r.queries ? `${r.queries} queries, ` : ''}${r.permutations ? `${r.permutations} permutations, ` : ''}${spent}${r.stopReason ? `, stop: ${r.stopReason}` : ''}]`;
  if (!r.shapley) return head;
  const columns = STEP_COLUMNS.filter((c) => r[c.field] !== undefined);
  const rows = r.players.map((p) => [printable(p), ...columns.map((c) => stepCell(ownValue<number | readonly [number, number]>(r[c.field], p)))]);
  const header = ['step', ...columns.map((c) => c.title)];
  const lines = [head, table(header, rows)];
  lines.push(`last step to touch: ${r.lastTouch ? printable(r.lastTouch) : '(none)'}${r.fixable === false ? '   (no combination of fixes repairs this case)' : ''}`);
  const skipped = notComputedLine(r);
  if (skipped) lines.push(skipped);
  const outside = outsideIntervalLine(r);
  if (outside) lines.push(outside);
  if (r.interactions && r.interactions.length) {
    const strongest = [...r.interactions].sort((a, b) => Math.abs(b.value) - Math.abs(a.value)).slice(0, 5);
    // A budget's bounds (shapley/interactions.ts boundedInteractions) are shown as bounds only: their middle is no estimate.
    const bounded = r.interactions.some((x) => x.bounded);
    const label = bounded ? 'strongest pair interactions, bounds from the coalitions known within the budget' : 'strongest pair interactions';
    lines.push(`${label} (+ repair together, - substitutes): ${strongest.map((x) => `${printable(x.steps[0])}×${printable(x.steps[1])} ${x.bounded ? '' : `${f3(x.value)} `}${x.ci ? `[${f3(x.ci[0])}, ${f3(x.ci[1])}]` : ''}`.trimEnd()).join(', ')}`);
  }
  for (const m of r.mismatches ?? []) lines.push(`note: replay differs from the recorded run: ${printable(m)}`);
  if (r.usage) lines.push(`model: ${usageText(r.usage)}`);
  const repairs = repairsLine(r);
  if (repairs) lines.push(repairs);
  return lines.join('\n');
}

/** The batch summary table; `contrast`: the contrast replays' usage (--contrast), in the same `model:` line; `mode` words the unfixable count. */
export function formatBatch(b: BatchResult, total: number, contrast?: NonNullable<CaseResult['usage']>, mode: AnalysisSettings['mode'] = 'recorded', errors = 0): string {
  const head = `${total} case${total === 1 ? '' : 's'}, ${b.failures} failure${b.failures === 1 ? '' : 's'}, ${b.analyzed} analysed, ${b.unfixable} ${unfixableText(mode)}; cost ${b.cost}${b.stoppedEarly ? ' (stopped once the top step separated)' : ''}`;
  if (b.analyzed === 0) {
    // A table of +0.000 for every step would read as a finding: with no failure analysed there is none.
    const why = errors > 0 ? `${errors} case${errors === 1 ? '' : 's'} could not be analysed (the ERROR lines above say why), and no other case failed` : 'no case failed';
    const usage = usageLine(b, contrast);
    return [head, `no failure analysed: ${why}, so there is nothing to blame`, ...(usage ? [usage] : [])].join('\n');
  }
  const rows = [...b.steps]
    .sort((a, c) => c.meanShapley - a.meanShapley)
    .map((s) => [printable(s.step), b.fixAloneKnown === 0 ? '-' : pct(s.fixAloneRate), f3(s.meanShapley), `[${f3(s.ci[0])}, ${f3(s.ci[1])}]`, pct(s.share), String(s.lastTouch)]);
  const out = [head, table(['step', 'fixing alone resolves', 'mean Shapley', 'CI', 'share', 'last-touch'], rows)];
  if (b.fixAloneKnown !== undefined) {
    out.push(`fixing alone: ${b.fixAloneKnown === 0 ? NOT_COMPUTED_WITHIN_BUDGET : `over the ${b.fixAloneKnown} of ${b.analyzed} analysed failures whose budget reached it (${NOT_COMPUTED_WITHIN_BUDGET} in the others)`}`);
  }
  const usage = usageLine(b, contrast);
  if (usage) out.push(usage);
  return out.join('\n');
}

/** The batch's `model:` line (its requests, and the contrast's), or null without either. */
function usageLine(b: BatchResult, contrast: NonNullable<CaseResult['usage']> | undefined): string | null {
  return b.usage || contrast ? `model: ${b.usage ? usageText(b.usage) : 'no requests'}${contrast ? `; contrast: ${usageText(contrast)}` : ''}` : null;
}

function usageText(u: NonNullable<CaseResult['usage']>): string {
  return `${u.requests} request${u.requests === 1 ? '' : 's'} sent, ${u.cacheHits} from the cache, ${u.inputTokens} input and ${u.outputTokens} output tokens`;
}
