import { validatePipeline, type ValidPipeline } from './pipeline.ts';
import { describe, expect, it } from 'vitest';
import { analyzeCase } from './analyze.ts';
import { lastTouch } from './baselines.ts';
import { analyzeTableGame } from './table-game.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import type { AnalysisSettings, PipelineDef } from './types.ts';
import { refundPipeline } from './testing/refund.ts';
import { tableGame, tableOf } from './testing/games.ts';

const exact: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact' };
const refundCase = { id: 'refund', inputs: { question: 'refund window?' } };

describe('baselines', () => {
  it('refund A: fix-alone 1,1,0,0; leave-one-out 0,0,0,0; last touch reviewer', () => {
    const r = analyzeCase(refundPipeline('A'), refundCase, exact);
    expect(r.fixAlone).toEqual({ planner: 1, retriever: 1, writer: 0, reviewer: 0 });
    expect(r.leaveOneOut).toEqual({ planner: 0, retriever: 0, writer: 0, reviewer: 0 });
    expect(r.lastTouch).toBe('reviewer');
    expect(r.fixable).toBe(true);
    expect(r.factualOutputs).toEqual({ planner: { dated: false }, retriever: 'policy-2023', writer: { answer: '90 days', cited: false }, reviewer: '90 days' });
    expect(r.fixedOutputs).toEqual({ planner: { dated: true }, retriever: 'policy-2026', writer: { answer: '30 days', cited: true }, reviewer: '30 days' });
    // Each step's fix alone, in the first world: the retriever's alone changes only its own output and what reads it.
    expect(Object.keys(r.aloneOutputs!)).toEqual(['planner', 'retriever', 'writer', 'reviewer']);
    expect(r.aloneOutputs!.retriever).toEqual({ planner: { dated: false }, retriever: 'policy-2026', writer: { answer: '30 days', cited: false }, reviewer: '30 days' });
    expect(r.aloneOutputs!.reviewer.planner).toEqual({ dated: false });
  });

  it('refund B: fix-alone 1,1,0,1; leave-one-out 0,0,0,0', () => {
    const r = analyzeCase(refundPipeline('B'), refundCase, exact);
    expect(r.fixAlone).toEqual({ planner: 1, retriever: 1, writer: 0, reviewer: 1 });
    expect(r.leaveOneOut).toEqual({ planner: 0, retriever: 0, writer: 0, reviewer: 0 });
  });

  it('baselines agree under Monte Carlo (they read v directly, not the estimate)', () => {
    const r = analyzeCase(refundPipeline('A'), refundCase, { ...DEFAULT_SETTINGS, method: 'mc', maxPermutations: 5, stop: 'budget' });
    expect(r.method).toBe('mc');
    expect(r.fixAlone).toEqual({ planner: 1, retriever: 1, writer: 0, reviewer: 0 });
    expect(r.leaveOneOut).toEqual({ planner: 0, retriever: 0, writer: 0, reviewer: 0 });
    expect(r.lastTouch).toBe('reviewer');
  });

  it('glove game: fix-alone 0,0,0 and leave-one-out 1,0,0 (one left, two right gloves)', () => {
    const values = tableOf(3, (m) => Math.min(+m.includes(0), m.filter((i) => i > 0).length));
    const r = analyzeTableGame(tableGame(values, 3), exact, 1);
    expect(r.fixAlone).toEqual({ p0: 0, p1: 0, p2: 0 });
    expect(r.leaveOneOut).toEqual({ p0: 1, p1: 0, p2: 0 });
    expect(r.lastTouch).toBeNull();
  });

  it('last touch: the last step whose output differs, or null when none does', () => {
    expect(lastTouch(['a', 'b', 'c'], [1, 2, 3], [1, 5, 3])).toBe('b');
    expect(lastTouch(['a', 'b', 'c'], [1, 2, 3], [1, 2, 3])).toBeNull();
    expect(lastTouch(['a', 'b', 'c'], [1, 2, 3], [9, 2, 4])).toBe('c');
  });

  it('last touch in a pipeline compares plain data, not object identity', () => {
    // The fix of b returns an equal but new object; only a really changes.
    const def = validatePipeline({
      name: 'lt',
      steps: [
        { name: 'a', inputs: ['q'], cost: 1, run: () => 1, fixes: [{ name: 'fa', cost: 1, run: () => 2 }] },
        { name: 'b', inputs: ['q'], cost: 1, run: () => ({ x: [1, 2], y: 'z' }), fixes: [{ name: 'fb', cost: 1, run: () => ({ y: 'z', x: [1, 2] }) }] },
      ],
      metric: (out) => (out.a === 2 ? 1 : 0),
    });
    const r = analyzeCase(def, { id: 'c', inputs: { q: 0 } }, exact);
    expect(r.lastTouch).toBe('a');
    expect(r.shapley).toEqual({ a: 1, b: 0 });
  });
});
