import type { CaseResult } from '../engine/types.ts';
import type { StudyAudit } from '../engine/audit/audit-study.ts';
import type { RepairOutcome } from './repairs-command.ts';
import { printable } from './printable.ts';

const f3 = (x: number | null | undefined): string => (typeof x !== 'number' || Number.isNaN(x) ? '-' : (x >= 0 ? '+' : '') + x.toFixed(3));
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const interval = (ci: readonly [number, number] | null): string => (ci ? `[${f3(ci[0])}, ${f3(ci[1])}]` : '-');
const pctInterval = (ci: readonly [number, number]): string => `[${pct(ci[0])}, ${pct(ci[1])}]`;

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** A case's minimal repairs as one line (null when the case has no repair search). */
export function repairsLine(r: CaseResult): string | null {
  if (!r.repairs || !r.repairSearch) return null;
  const s = r.repairSearch;
  const scope = s.complete ? 'every set' : `sets of up to ${s.maxSize} step${s.maxSize === 1 ? "" : "s"}`;
  if (r.repairs.length === 0) return `minimal repairs (v >= ${s.success}, ${scope}): none`;
  const sets = r.repairs.map((x) => `{${x.fixed.map(printable).join(', ')}} cost ${x.cost}`);
  return `minimal repairs (v >= ${s.success}, ${scope}): ${sets.join('; ')}`;
}

/** The causal consensus table and the training pairs written, for the batch summary. */
export function formatRepairOutcome(o: RepairOutcome): string | null {
  const out: string[] = [];
  if (o.consensus && o.repairCases) {
    const c = o.repairCases;
    out.push(`causal consensus: share of the ${c.searched} searched failures whose minimal repairs include the step (${c.unrepaired} with no repair in the search)`);
    const rows = [...o.consensus].sort((a, b) => b.share - a.share).map((s) => [printable(s.step), `${s.cases}/${s.of}`, pct(s.share), pctInterval(s.ci)]);
    out.push(table(['step', 'cases', 'consensus', 'Wilson 95%'], rows));
  }
  if (o.pairs) out.push(`training pairs: ${o.pairs.written} written to ${printable(o.pairs.file)}`);
  if (o.audit) out.push(formatAudit(o.audit));
  return out.length ? out.join('\n') : null;
}

/** The audit as a table: each signal beside its shuffled control, with the verdict. */
export function formatAudit(a: StudyAudit): string {
  const rows = a.signals.map((s) => [
    printable(s.name) + (s.builtin ? '' : ' (given)'),
    `${s.used}/${s.cases}`,
    f3(s.fidelity.median),
    interval(s.fidelity.ci),
    f3(s.control.median),
    interval(s.control.ci),
    `${s.pivotal.hits}/${s.pivotal.n} ${pctInterval(s.pivotal.ci)}`,
    `${s.sign.agree}/${s.sign.n} ${pctInterval(s.sign.ci)}`,
    s.verdict,
  ]);
  return [
    `credit audit against the Shapley values (median within-case Spearman, ${a.resamples} bootstrap resamples of cases, seed ${a.seed})`,
    table(['signal', 'cases used', 'Spearman', '95% CI', 'shuffled', '95% CI', 'top-1 at pivotal', 'sign agreement', 'verdict'], rows),
  ].join('\n');
}

/** The batch with its causal consensus (--json's `batch.consensus`), when repairs were searched. */
export function batchWithConsensus<B extends object>(batch: B, o: RepairOutcome): B | (B & { consensus: unknown }) {
  return o.consensus ? { ...batch, consensus: { ...o.repairCases, steps: o.consensus } } : batch;
}

/** The top-level --json fields: the pairs written and the audit (per-case repairs are caseForJson's). */
export function repairJson(o: RepairOutcome): Record<string, unknown> {
  return {
    ...(o.pairs && { pairs: o.pairs }),
    ...(o.audit && { audit: o.audit }),
  };
}
