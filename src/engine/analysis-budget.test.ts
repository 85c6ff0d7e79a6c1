import { describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import type { AnalysisSettings, AttributedCaseResult, CaseResult } from './types.ts';
import { refundPipeline } from './testing/refund.ts';
import { formatBatch, formatCase } from '../cli/tables.ts';
import { aggregateBatch } from './batch.ts';
import { validateBatch } from '../session/validate-batch.ts';

// The refund pipeline's steps cost 1, 2, 1, 1: one coalition's replay costs at most 5.
const MAX_COALITION_COST = 5;
const refundCase = { id: 'refund', inputs: { question: 'refund window?' } };
const budgeted = (budget: number, extra: Partial<AnalysisSettings> = {}): AnalysisSettings => ({ ...DEFAULT_SETTINGS, method: 'mc', stop: 'budget', maxPermutations: 1e6, budget, ...extra });

function attributed(r: CaseResult): AttributedCaseResult {
  if (r.error !== undefined || !r.failed) throw new Error(`expected an attributed failure, got ${JSON.stringify(r)}`);
  return r;
}

describe('--budget bounds the whole analysis (docs/method.md, "Budget")', () => {
  it('a budget spent by v(no fix) leaves only v(all fixes) past it: no sample, no baselines, and says so', () => {
    const r = attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(5)));
    // v(no fix) costs 5: the budget is spent; v(all fixes) is the one coalition past it.
    expect(r.cost).toBeLessThanOrEqual(5 + MAX_COALITION_COST);
    expect(r.evaluations).toBe(2);
    expect(r.vAll).toBe(1);
    expect(r.permutations).toBe(0);
    expect(r.fixAlone).toBeUndefined();
    expect(r.leaveOneOut).toBeUndefined();
    expect(r.resolvedAlone).toBeUndefined();
    // Nor each step's fix-alone outputs, which come from those coalitions.
    expect(r.aloneOutputs).toBeUndefined();
    expect(r.notComputed).toEqual(['fixAlone', 'leaveOneOut']);
    const text = formatCase(r, 5);
    expect(text).toContain(`cost ${r.cost} of budget 5`);
    expect(text).toContain('not computed within the budget: fix-alone, leave-one-out');
    expect(text.split('\n')[1].split(/\s+/)).toEqual(['step', 'Shapley', 'interval']);
  });

  it('every budget: the cost passes it by at most one coalition, and each baseline is whole or absent', () => {
    for (const budget of [1, 6, 9, 12, 15, 20, 25]) {
      const r = attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(budget, { repairs: { size: 2 }, interactions: true })));
      expect(r.cost, `budget ${budget}`).toBeLessThanOrEqual(Math.max(budget, 5) + MAX_COALITION_COST);
      for (const part of ['fixAlone', 'leaveOneOut'] as const) {
        expect(r[part] === undefined, `budget ${budget}: ${part}`).toBe(r.notComputed?.includes(part) ?? false);
      }
      // Four steps: the interactions are exact, or bounded from the coalitions known (never left out).
      expect(r.interactions, `budget ${budget}: interactions`).toHaveLength(6);
      expect(r.notComputed ?? []).not.toContain('interactions');
      // The fix-alone outputs come with the fix-alone baseline, at no cost of their own (its coalitions are known).
      expect(r.aloneOutputs === undefined, `budget ${budget}: aloneOutputs`).toBe(r.fixAlone === undefined);
      // The repair search stops with the budget too, saying how far it got.
      if (budget === 1) expect(r.repairSearch).toEqual({ success: 1, maxSize: 0, complete: false });
    }
    const lasting = attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(1000, { repairs: { size: 2 } })));
    expect(lasting.repairSearch).toEqual({ success: 1, maxSize: 2, complete: false });
    expect(lasting.repairs!.map((x) => x.fixed)).toEqual([['planner'], ['retriever'], ['writer', 'reviewer']]);
  });

  it('interactions a budget stops are sure bounds from the coalitions known: they hold the exact values, and the outputs say bounds', () => {
    const exact = attributed(analyzeCase(refundPipeline('A'), refundCase, { ...DEFAULT_SETTINGS, method: 'exact', interactions: true })).interactions!;
    const r = attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(12, { interactions: true })));
    expect(r.interactions!.every((x) => x.bounded === true)).toBe(true);
    r.interactions!.forEach((x, k) => {
      expect(x.steps).toEqual(exact[k].steps);
      expect(exact[k].value).toBeGreaterThanOrEqual(x.ci![0] - 1e-12);
      expect(exact[k].value).toBeLessThanOrEqual(x.ci![1] + 1e-12);
    });
    // Some coalitions were known past v(∅) and v(all): some pair's bounds are narrower than those two alone leave (4 − 2/3).
    expect(Math.min(...r.interactions!.map((x) => x.ci![1] - x.ci![0]))).toBeLessThan(4 - 2 / 3 - 1e-9);
    expect(formatCase(r, 12)).toMatch(/strongest pair interactions, bounds from the coalitions known within the budget \(\+ repair together, - substitutes\): \S+×\S+ \[[+-]\d\.\d{3}, [+-]\d\.\d{3}\]/);
    // A budget that lasts: the exact values, not bounds.
    expect(attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(1000, { interactions: true }))).interactions!.some((x) => x.bounded)).toBe(false);
  });

  it('a budget that lasts computes everything, as without a budget', () => {
    const r = attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(1000)));
    const free = attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(Infinity, { maxPermutations: 50 })));
    expect(r.notComputed).toBeUndefined();
    expect(r.fixAlone).toEqual({ planner: 1, retriever: 1, writer: 0, reviewer: 0 });
    expect(r.leaveOneOut).toEqual(free.leaveOneOut);
    expect(r.resolvedAlone).toEqual(['planner', 'retriever']);
  });

  it('the exact method ignores the budget (it asks for every coalition)', () => {
    const r = attributed(analyzeCase(refundPipeline('A'), refundCase, { ...budgeted(1), method: 'exact' }));
    expect(r.notComputed).toBeUndefined();
    expect(r.fixAlone).toBeDefined();
  });

  it('the batch rates fixing alone over the failures that computed it, and says over how many', () => {
    const spent = attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(5)));
    const lasting = attributed(analyzeCase(refundPipeline('A'), refundCase, budgeted(1000)));
    const batch = aggregateBatch([spent, { ...lasting, id: 'other' }], { delta: 0.05, bound: 'bernstein' });
    expect(batch.analyzed).toBe(2);
    expect(batch.fixAloneKnown).toBe(1);
    // The planner's fix alone repairs the one case that computed it: 100 %, not 50 %.
    expect(batch.steps.find((s) => s.step === 'planner')!.fixAloneRate).toBe(1);
    expect(formatBatch(batch, 2)).toContain('fixing alone: over the 1 of 2 analysed failures whose budget reached it (not computed within the budget in the others)');
    expect(validateBatch(JSON.parse(JSON.stringify(batch)), 'batch').fixAloneKnown).toBe(1);
    const none = aggregateBatch([spent], { delta: 0.05, bound: 'bernstein' });
    expect(none.fixAloneKnown).toBe(0);
    expect(formatBatch(none, 1)).toContain('fixing alone: not computed within the budget');
    expect(aggregateBatch([lasting], { delta: 0.05, bound: 'bernstein' }).fixAloneKnown).toBeUndefined();
  });
});
