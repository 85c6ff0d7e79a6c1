/** The printed table, the reference comparison and the targets, from measured rows. */
import { REFERENCE } from './reference.ts';
import type { WorkloadResult } from './result.ts';

export interface Target {
  goal: string;
  measured: string;
  met: boolean | null;
}

export interface DemoTotal {
  demo: string;
  wallMs: number;
  cpuMs: number;
  referenceWallMs: number;
  speedUp: number;
}

/**
 * The group of the bandit stop's coverage row on a planted batch (bench/workloads/demos.ts): not
 * a `demo:` group, since 200 repetitions on a synthetic batch are no part of the 8-step demo,
 * whose rows are summed against the reference's wall time.
 */
export const PLANTED_GROUP = 'batch-stop:planted';

const DEMO_REFERENCE: Record<string, number> = {
  'demo:refund': REFERENCE.refundWallMs,
  'demo:rag': REFERENCE.stochasticRagWallMs,
  'demo:eight-step': REFERENCE.eightStepWallMs,
};

export function demoTotals(rows: readonly WorkloadResult[]): DemoTotal[] {
  return Object.entries(DEMO_REFERENCE).flatMap(([group, ref]) => {
    const mine = rows.filter((r) => r.group === group && !r.beyondReference);
    if (mine.length === 0) return [];
    const wallMs = mine.reduce((s, r) => s + r.wallMs, 0);
    const cpuMs = mine.reduce((s, r) => s + r.cpuMs, 0);
    return [{ demo: group.slice(5), wallMs, cpuMs, referenceWallMs: ref, speedUp: ref / wallMs }];
  });
}

export function targets(rows: readonly WorkloadResult[]): Target[] {
  const out: Target[] = [];
  const totals = demoTotals(rows);
  if (totals.length === 3) {
    const ours = totals.reduce((s, t) => s + t.wallMs, 0);
    const ref = totals.reduce((s, t) => s + t.referenceWallMs, 0);
    out.push({ goal: 'three demo workloads together >= 50x faster than the reference (wall)', measured: `${fmtMs(ours)} vs ${fmtMs(ref)}: ${(ref / ours).toFixed(1)}x`, met: ref / ours >= 50 });
    // Idle time between cases (round trips, timers, worker start) shows as wall beyond the CPU
    // that every process spent (the command's workers are child processes: bench/lib/tree-cpu.ts).
    const worst = totals.reduce((a, b) => (b.wallMs / b.cpuMs > a.wallMs / a.cpuMs ? b : a));
    out.push({ goal: "each demo's wall at most 1.5x its CPU summed over processes", measured: totals.map((t) => `${t.demo} ${(t.wallMs / t.cpuMs).toFixed(2)}x`).join(', '), met: worst.wallMs / worst.cpuMs <= 1.5 });
  }
  const trendCommand = rows.find((r) => r.group === 'trends' && r.name.startsWith('command, digests cached: 365 '));
  if (trendCommand) out.push({ goal: 'trend command over a year of daily studies (365 x 500 failures) under 5 s', measured: fmtMs(trendCommand.wallMs), met: trendCommand.wallMs < 5000 });
  const trendView = rows.find((r) => r.group === 'trends' && r.name.startsWith('Trends view, digests kept: 365 '));
  if (trendView) out.push({ goal: 'Trends view over a year of daily studies under 2 s (Node, fake-indexeddb)', measured: fmtMs(trendView.wallMs), met: trendView.wallMs < 2000 });
  const n20 = rows.find((r) => r.group === 'exact-scaling' && /n = 20 /.test(r.name));
  if (n20) out.push({ goal: 'exact Shapley for n = 20 under 1 s', measured: fmtMs(n20.wallMs), met: n20.wallMs < 1000 });
  const ses = rows.filter((r) => r.group === 'sandbox' && r.detail?.sesOverPlain !== undefined);
  if (ses.length) {
    const worst = Math.max(...ses.map((r) => r.detail!.sesOverPlain as number));
    out.push({ goal: 'SES overhead at most 1.2x on the demo steps', measured: `worst ${worst.toFixed(2)}x (${ses.map((r) => `${r.name.split(' ')[0]} ${(r.detail!.sesOverPlain as number).toFixed(2)}x`).join(', ')})`, met: worst <= 1.2 });
  }
  for (const n of [16, 32]) {
    const mine = rows.filter((r) => r.group === 'estimators' && r.name.startsWith(`n = ${n} table, width`));
    const better = mine.filter((r) => !r.name.endsWith('permutation + bernstein') && r.detail?.reachedGoal);
    if (mine.length && better.length) {
      const best = better.reduce((a, b) => ((a.detail!.fewerQueriesThanBaseline as number) >= (b.detail!.fewerQueriesThanBaseline as number) ? a : b));
      const ratio = best.detail!.fewerQueriesThanBaseline as number;
      out.push({ goal: `guaranteed width 0.02 at n = ${n}: >= 2x fewer queries than permutation + Bernstein (aim 3x)`, measured: `${ratio.toFixed(2)}x (${best.name.split(': ')[1]}, ${best.detail!.queries} queries)`, met: ratio >= 2 });
    }
  }
  const exactBatch = rows.find((r) => r.group === 'demo:eight-step' && /^batch \d+ cases, exact$/.test(r.name));
  const mcBatch = rows.find((r) => r.group === 'demo:eight-step' && /^batch \d+ cases, Monte Carlo/.test(r.name));
  if (exactBatch && mcBatch) {
    const ratio = mcBatch.wallMs / exactBatch.wallMs;
    const most = mcBatch.detail!.maxCaseEvaluations as number;
    const all = mcBatch.detail!.coalitions as number;
    out.push({ goal: '8-step batch: Monte Carlo wall at most 1.5x exact, no case past 2^n distinct coalitions', measured: `${fmtMs(mcBatch.wallMs)} vs ${fmtMs(exactBatch.wallMs)}: ${ratio.toFixed(2)}x (CPU ${(mcBatch.cpuMs / exactBatch.cpuMs).toFixed(2)}x); at most ${most} of ${all} coalitions a case`, met: ratio <= 1.5 && most <= all });
  }
  const anytime = rows.find((r) => r.group === 'demo:eight-step' && /adaptive stream \(anytime stop\)/.test(r.name));
  if (anytime) {
    const d = anytime.detail!;
    out.push({ goal: '8-step stream: anytime-valid batch stop within 100 failures with drafter on top', measured: `${d.failuresAnalysed} failures, top ${d.top}${d.stopped ? '' : ' (did not stop)'}`, met: Boolean(d.stopped) && (d.failuresAnalysed as number) <= 100 && d.top === 'drafter' });
  }
  const bandit = rows.filter((r) => r.group === 'demo:eight-step' && /adaptive stream \(bandit stop, /.test(r.name));
  const planted = rows.find((r) => r.group === PLANTED_GROUP && /^bandit stop on a planted batch/.test(r.name));
  if (anytime && bandit.length > 0 && planted) {
    // The workers' layout (the bench's pool) is the one that counts: a single thread shares more.
    // Its cost is the median over the repetitions (which worker ran which case varies).
    const pooled = bandit[0];
    const d = pooled.detail!;
    const p = planted.detail!;
    const ratio = (anytime.cost ?? 0) / (pooled.cost ?? Infinity);
    const valid = (p.coverage as number) >= 1 - (p.delta as number) && (p.rightTop as number) >= 1 - (p.delta as number);
    out.push({
      goal: '8-step stream: bandit stop >= 2x fewer step runs than the anytime stop, same top step and delta, coverage >= 1 - delta on a planted batch',
      measured: `${fmtNum(pooled.cost)} (median of ${(d.costs as number[]).join(', ')}) vs ${fmtNum(anytime.cost)} step-cost units: ${ratio.toFixed(2)}x (${bandit.map((r) => `${r.name.match(/bandit stop, ([^)]*)\)/)![1]} ${fmtNum(r.cost)}`).join(', ')}); ${d.failuresAnalysed} failures, top ${d.top}; planted ${p.reps} reps: coverage ${p.coverage}, right top ${p.rightTop}`,
      met: ratio >= 2 && d.top === anytime.detail!.top && Boolean(d.stopped) && valid,
    });
  }
  const scaling = rows.filter((r) => r.group === 'replay-scaling');
  const big = scaling.find((r) => r.detail?.turns !== undefined && (r.detail.turns as number) >= 1999);
  if (big) out.push({ goal: '2 000 runtape turns replayed with one player under 60 s (instant endpoint)', measured: `${fmtMs(big.wallMs)} (CPU ${fmtMs(big.cpuMs)}), ${big.detail!.requestsSent} requests, ${big.detail!.restarts} restarts, ${big.detail!.waits} waits`, met: big.wallMs < 60_000 });
  if (scaling.length) {
    const worst = scaling.reduce((a, b) => ((b.detail!.definitionOverTrace as number) > (a.detail!.definitionOverTrace as number) ? b : a));
    out.push({ goal: 'replay definition under 10x the trace at every size', measured: scaling.map((r) => `${r.detail!.turns} turns ${r.detail!.definitionOverTrace}x (${r.detail!.bytesPerTurn} B/turn)`).join(', '), met: (worst.detail!.definitionOverTrace as number) < 10 });
  }
  return out;
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
}

function fmtNum(x: number | undefined, digits = 0): string {
  if (x === undefined) return '';
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

function pad(cells: string[][]): string {
  const widths = cells[0].map((_, j) => Math.max(...cells.map((row) => row[j].length)));
  return cells.map((row) => row.map((c, j) => (j <= 1 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  ').trimEnd()).join('\n');
}

export function formatTable(rows: readonly WorkloadResult[]): string {
  const head = ['group', 'workload', 'wall', 'cpu', 'cost', 'evals', 'max|err|', 'extra', 'reference', 'ratio'];
  const body = rows.map((r) => {
    const extra: string[] = [];
    const d = r.detail ?? {};
    if (d.queries !== undefined) extra.push(`${d.queries} queries`);
    if (d.fewerQueriesThanBaseline !== undefined) extra.push(`${(d.fewerQueriesThanBaseline as number).toFixed(2)}x fewer`);
    if (d.stopReason !== undefined && d.reachedGoal === false) extra.push(`stop ${d.stopReason}`);
    if (d.topIsRight === false) extra.push('WRONG top');
    if (d.permutations !== undefined) extra.push(`${d.permutations} perms`);
    if (d.permutationsMedian !== undefined) extra.push(`${d.permutationsMedian} perms`);
    if (d.failures !== undefined) extra.push(`${d.failures} fail`);
    if (d.failuresAnalysed !== undefined) extra.push(`${d.failuresAnalysed} analysed`);
    if (d.top !== undefined) extra.push(`top ${d.top}`);
    if (d.kernelWallMs !== undefined) extra.push(`kernel ${fmtMs(d.kernelWallMs as number)}`);
    if (d.sesOverPlain !== undefined) extra.push(`${(d.sesOverPlain as number).toFixed(2)}x plain`);
    if (d.workers) extra.push(`${d.workers} workers`);
    if (d.requestsSent !== undefined) extra.push(`${d.requestsSent} requests sent${d.naiveRequests === undefined ? '' : ` of ${d.naiveRequests} naive`}`);
    if (d.restarts !== undefined) extra.push(`${d.restarts} restarts, ${d.waits} waits`);
    if (d.hostCpuMs !== undefined) extra.push(`host CPU ${fmtMs(d.hostCpuMs as number)}`);
    if (d.speedUpOverFirst !== undefined && d.speedUpOverFirst !== 1) extra.push(`${(d.speedUpOverFirst as number).toFixed(1)}x faster than concurrency 1`);
    if (r.beyondReference) extra.push('not in the demo total');
    const ref = r.reference;
    return [
      r.group,
      r.name,
      fmtMs(r.wallMs),
      fmtMs(r.cpuMs),
      fmtNum(r.cost),
      fmtNum(r.evaluations),
      r.maxError === undefined ? '' : r.maxError.toFixed(3),
      extra.join(', '),
      ref ? `${ref.unit === 'ms' ? fmtMs(ref.value) : ref.value}` : '',
      ref ? `${(ref.ours / ref.value).toFixed(2)}x` : '',
    ];
  });
  return pad([head, ...body]);
}

export function formatCrnTable(rows: readonly WorkloadResult[]): string {
  const study = rows.find((r) => Array.isArray(r.detail?.table));
  if (!study) return '';
  const table = study.detail!.table as Record<string, number | string>[];
  const head = ['mode', 'estimator', 'Var CRN', 'Var indep', 'indep/CRN', 'ref', 'cost CRN', 'cost indep', 'Var*cost gain'];
  const body = table.map((t) => [
    String(t.mode),
    String(t.estimator),
    (t.varCrn as number).toFixed(5),
    (t.varIndep as number).toFixed(5),
    `${(t.indepOverCrn as number).toFixed(2)}x`,
    `${t.referenceIndepOverCrn}x`,
    t.costCrnPerReplicate === undefined ? '' : (t.costCrnPerReplicate as number).toFixed(0),
    t.costIndepPerReplicate === undefined ? '' : (t.costIndepPerReplicate as number).toFixed(0),
    t.varTimesCostGain === undefined ? '' : `${(t.varTimesCostGain as number).toFixed(2)}x`,
  ]);
  return `${study.name}\n${pad([head, ...body])}`;
}

export function formatTotals(rows: readonly WorkloadResult[]): string {
  const totals = demoTotals(rows);
  if (!totals.length) return '';
  const head = ['demo', 'ours (wall)', 'ours (cpu)', 'reference (wall)', 'speed-up'];
  const body = totals.map((t) => [t.demo, fmtMs(t.wallMs), fmtMs(t.cpuMs), fmtMs(t.referenceWallMs), `${t.speedUp.toFixed(1)}x`]);
  const rag = totals.find((t) => t.demo === 'rag');
  const note = rag ? `\n(reference stochastic RAG also reports ${fmtMs(REFERENCE.stochasticRagCpuMs)} CPU on 2 CPUs; ours ${fmtMs(rag.cpuMs)} CPU, ${(REFERENCE.stochasticRagCpuMs / rag.cpuMs).toFixed(1)}x)` : '';
  return pad([head, ...body]) + note;
}

export function formatTargets(list: readonly Target[]): string {
  return list.map((t) => `${t.met === null ? '[ ? ]' : t.met ? '[met]' : '[MISSED]'} ${t.goal}: ${t.measured}`).join('\n');
}
