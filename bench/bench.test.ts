/**
 * Smoke run of the benchmark suite at tiny sizes, so no workload can rot unnoticed. No timing is
 * asserted; what is checked is that every workload runs and that its figures are sane.
 */
import { describe, expect, it } from 'vitest';
import { exactShapley, BlameGame } from '../src/engine/index.ts';
import { SMOKE_SIZES } from './lib/sizes.ts';
import { runSuite, WORKLOADS } from './run.ts';
import { majorityPipeline, majorityShapley, quadraticTable } from './lib/synthetic-games.ts';
import { exactShapleyFromTable } from '../src/engine/index.ts';
import { demoTotals, formatCrnTable, formatTable, formatTargets, formatTotals, PLANTED_GROUP, targets } from './lib/report.ts';
import type { WorkloadResult } from './lib/result.ts';

describe('synthetic games', () => {
  it('the quadratic table has the closed-form Shapley values a_i / A', () => {
    const { values, exact } = quadraticTable(5);
    expect(values[0]).toBe(0);
    expect(values[31]).toBeCloseTo(1, 12);
    exactShapleyFromTable(values, 5).forEach((phi, i) => expect(phi).toBeCloseTo(exact[i], 12));
    expect(exact).toEqual([1, 2, 3, 4, 5].map((a) => a / 15));
  });

  it('the majority DP agrees with exact Shapley over the replayed pipeline', () => {
    const { def, exact } = majorityPipeline(7);
    const game = new BlameGame(def, { id: 'm', inputs: { start: 0 } }, { mode: 'recorded', worlds: 1 });
    exactShapley(game).values.forEach((phi, i) => expect(phi).toBeCloseTo(exact[i], 12));
    expect(exact.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
  });

  it('a dictator gets everything in the majority DP', () => {
    expect(majorityShapley([5, 1, 1], 5)).toEqual([1, 0, 0]);
  });
});

describe('demo totals', () => {
  const row = (group: string, name: string, wallMs: number, extra: Partial<WorkloadResult> = {}): WorkloadResult => ({ group, name, wallMs, cpuMs: wallMs, wallRunsMs: [wallMs], ...extra });
  it('sum the demo groups only: the planted batch\'s coverage row is not part of the 8-step demo, and still feeds the bandit target', () => {
    const rows = [
      row('demo:refund', 'refund', 1),
      row('demo:rag', 'rag', 1000),
      row('demo:eight-step', 'adaptive stream (anytime stop), up to 3000 cases', 100, { cost: 3576, detail: { stopped: true, failuresAnalysed: 45, top: 'drafter' } }),
      row('demo:eight-step', 'adaptive stream (bandit stop, 2 workers), up to 3000 cases', 200, { cost: 1600, detail: { stopped: true, failuresAnalysed: 25, top: 'drafter', costs: [1600] } }),
      row(PLANTED_GROUP, 'bandit stop on a planted batch, 200 seeded repetitions (delta 0.05)', 12_800, { detail: { reps: 200, delta: 0.05, coverage: 1, rightTop: 1 } }),
    ];
    expect(demoTotals(rows).find((t) => t.demo === 'eight-step')?.wallMs).toBe(300);
    expect(targets(rows).find((t) => t.goal.includes('bandit stop'))?.met).toBe(true);
  });

  it('leave out of a demo\'s total the rows the reference\'s demo does not run, which still feed their targets', () => {
    const rows = [
      row('demo:eight-step', 'batch 400 cases, exact', 180),
      row('demo:eight-step', 'adaptive stream (bernstein stop), up to 3000 cases', 290),
      row('demo:eight-step', 'adaptive stream (anytime stop), up to 3000 cases', 30, { beyondReference: true, cost: 3576, detail: { stopped: true, failuresAnalysed: 45, top: 'drafter' } }),
      row('demo:eight-step', 'batch 400 cases, Monte Carlo (top1)', 175, { beyondReference: true, detail: { maxCaseEvaluations: 256, coalitions: 256 } }),
    ];
    expect(demoTotals(rows).find((t) => t.demo === 'eight-step')?.wallMs).toBe(470);
    expect(targets(rows).find((t) => t.goal.startsWith('8-step batch: Monte Carlo'))?.met).toBe(true);
    expect(targets(rows).find((t) => t.goal.startsWith('8-step stream: anytime'))?.met).toBe(true);
  });
});

describe('bench suite (smoke sizes)', () => {
  it('runs every workload and reports sane figures', async () => {
    const out = await runSuite(SMOKE_SIZES);
    const groups = new Set(out.workloads.map((w) => w.group));
    for (const g of ['sandbox', 'demo:refund', 'demo:rag', 'demo:eight-step', 'exact-scaling', 'mc-efficiency', 'model-steps', 'estimators', 'own-cases', 'replay', 'replay-scaling', 'why', 'trends']) expect(groups).toContain(g);
    expect(Object.keys(WORKLOADS).length).toBe(14);
    for (const w of out.workloads) {
      expect(w.wallMs, w.name).toBeGreaterThanOrEqual(0);
      expect(w.wallRunsMs).toHaveLength(SMOKE_SIZES.runs);
      if (w.maxError !== undefined) expect(w.maxError, w.name).toBeLessThanOrEqual(2);
    }
    // Exact Shapley of the quadratic game is exact; the refund demo has Shapley 5/12, 5/12, 1/12, 1/12.
    for (const w of out.workloads.filter((w) => w.group === 'exact-scaling')) expect(w.maxError).toBeLessThan(1e-12);
    const refund = out.workloads.find((w) => w.name === 'refund-policy: exact')!;
    expect(refund.detail!.shapley).toEqual({ planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, reviewer: 1 / 12 });
    const crn = out.workloads.find((w) => Array.isArray(w.detail?.table))!;
    expect(crn.detail!.table).toHaveLength(6);
    expect(out.demoTotals.map((t) => t.demo)).toEqual(['refund', 'rag', 'eight-step']);
    expect(out.targets.length).toBeGreaterThanOrEqual(2);
    for (const text of [formatTable(out.workloads), formatCrnTable(out.workloads), formatTotals(out.workloads), formatTargets(out.targets)]) {
      expect(text.length).toBeGreaterThan(0);
    }
    // Eleven groups at smoke size take tens of seconds on a busy shared machine.
  }, 180_000);
});
