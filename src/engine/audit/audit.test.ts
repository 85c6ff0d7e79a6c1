import { describe, expect, it } from 'vitest';
import { auditSignal, MIN_VERDICT_CASES, verdictOf, type AuditCase } from './audit-signal.ts';
import { pivotalHit } from './pivotal-hit.ts';
import { signAgreement } from './sign-agreement.ts';
import { auditStudy } from './audit-study.ts';
import { builtinSignalScores } from './builtin-signals.ts';
import { seededRng } from '../rng.ts';
import type { AttributedCaseResult } from '../types.ts';

const rngs = (seed: number) => ({ shuffle: seededRng(seed), bootstrap: seededRng(seed + 1), controlBootstrap: seededRng(seed + 2) });

// Five cases: truth (Shapley) then the signal's scores.
const CASES: AuditCase[] = [
  { id: 'a', truth: [0.5, 0.3, 0.2, 0.0], scores: [0.9, 0.1, 0.4, 0.2] },
  { id: 'b', truth: [0.1, 0.6, 0.3, 0.0], scores: [0.2, 0.5, 0.5, 0.1] },
  { id: 'c', truth: [0.25, 0.25, 0.25, 0.25], scores: [1, 2, 3, 4] }, // constant truth: undefined
  { id: 'd', truth: [0.0, 0.2, 0.7, 0.1], scores: [0.3, 0.3, 0.3, 0.3] }, // constant scores: undefined
  { id: 'e', truth: [0.4, 0.4, 0.1, 0.1], scores: [0.0, 1.0, 0.5, 0.2] },
];

describe('audit point estimates (python3 reference: mid-rank Spearman per case [0.4, 0.94868, None, None, 0.0], median 0.4; sign splits 8 of 12)', () => {
  it('median within-case Spearman, cases used and undefined, pivotal hits, sign agreement', () => {
    const a = auditSignal(CASES, rngs(1), 2000);
    expect(a.cases).toBe(5);
    expect(a.used).toBe(3);
    expect(a.undefined).toBe(2);
    expect(a.fidelity.median).toBeCloseTo(0.4, 12);
    // By hand: a hits (0.9 tops, truth tops there); b ties 0.5/0.5 at the top: miss; c has no
    // pivotal step; d ties everywhere: miss; e's top (1.0) is one of truth's two tops: hit.
    expect([a.pivotal.hits, a.pivotal.n]).toEqual([2, 4]);
    expect([a.sign.agree, a.sign.n]).toEqual([8, 12]);
    expect(a.fidelity.ci![0]).toBeLessThanOrEqual(0.4);
    expect(a.fidelity.ci![1]).toBeGreaterThanOrEqual(0.4);
  });

  it('pivotal hit and sign agreement on their own', () => {
    expect(pivotalHit([1, 0, 0], [0.2, 0.1, 0])).toBe(true);
    expect(pivotalHit([1, 1, 0], [0.2, 0.1, 0])).toBe(false);
    expect(pivotalHit([1, 0, 0], [0.1, 0.1, 0.1])).toBeNull();
    expect(signAgreement([3, 2, 1], [1, 2, 3])).toEqual({ agree: 0, n: 2 });
  });

  it('the verdict needs disjoint intervals', () => {
    expect(verdictOf([0.5, 0.9], [-0.2, 0.3])).toBe('above control');
    expect(verdictOf([0.2, 0.9], [-0.2, 0.3])).toBe('indistinguishable');
    expect(verdictOf([-0.9, -0.5], [-0.2, 0.3])).toBe('below control');
    expect(verdictOf(null, [0, 1])).toBe('undefined');
  });
});

describe('an oracle signal beats its shuffled control; a random one does not', () => {
  const rng = seededRng(99);
  const cases: AuditCase[] = Array.from({ length: 40 }, (_, k) => {
    const truth = Array.from({ length: 5 }, () => rng());
    return { id: `c${k}`, truth, scores: truth.map((t) => 2 * t + 1) };
  });
  it('oracle', () => {
    const a = auditSignal(cases, rngs(3), 2000);
    expect(a.fidelity.median).toBe(1);
    expect(a.verdict).toBe('above control');
    expect(a.pivotal.rate).toBe(1);
  });
  it('random', () => {
    const noise = seededRng(4);
    const a = auditSignal(cases.map((c) => ({ ...c, scores: c.truth.map(() => noise()) })), rngs(5), 2000);
    expect(a.verdict).toBe('indistinguishable');
  });
  it('the same seed gives the same audit', () => {
    expect(auditSignal(cases, rngs(3), 500)).toEqual(auditSignal(cases, rngs(3), 500));
  });
  it(`gives no verdict from fewer than ${MIN_VERDICT_CASES} cases, however far apart the intervals`, () => {
    expect(MIN_VERDICT_CASES).toBe(6);
    // One case: both intervals are points (1 against the shuffle's value), disjoint, yet say nothing.
    const one = auditSignal(cases.slice(0, 1), rngs(3), 500);
    expect(one.fidelity.ci).toEqual([1, 1]);
    expect(one.verdict).toBe('too few cases');
    expect(auditSignal(cases.slice(0, 5), rngs(3), 500).verdict).toBe('too few cases');
    expect(auditSignal(cases.slice(0, 6), rngs(3), 500).verdict).not.toBe('too few cases');
  });
});

function failure(id: string, shapley: number[], extra: Partial<AttributedCaseResult> = {}): AttributedCaseResult {
  const players = ['plan', 'fetch', 'write'];
  const rec = (xs: number[]) => Object.fromEntries(players.map((p, i) => [p, xs[i]]));
  return {
    id, players, method: 'exact', failed: true, vEmpty: 0, vAll: 1, cost: 0, evaluations: 8, permutations: 0,
    shapley: rec(shapley), fixAlone: rec(shapley.map((x) => x * 2)), leaveOneOut: rec([0, 0, 1]), lastTouch: 'fetch',
    stopReason: 'exact', fixable: true, ...extra,
  };
}

describe('built-in signals and the study audit', () => {
  it('scores each built-in signal per step', () => {
    const r = failure('q', [0.6, 0.3, 0.1], { factualOutputs: { plan: 'x', fetch: 'y', write: 'z' }, fixedOutputs: { plan: 'x', fetch: 'Y', write: 'Z' } });
    expect(builtinSignalScores(r)).toEqual({
      'fix-alone': [1.2, 0.6, 0.2],
      'leave-one-out': [0, 0, 1],
      'last touch': [0, 1, 0],
      'last step': [0, 0, 1],
      'first error': [0, 1, 0],
    });
    expect(builtinSignalScores(failure('g', [1, 0, 0], { lastTouch: null }))['last touch']).toBeNull();
  });

  it('audits built-in and given signals; a given signal that leaves a step unscored makes the case undefined', () => {
    const fs = [failure('a', [0.6, 0.3, 0.1]), failure('b', [0.1, 0.2, 0.7])];
    const audit = auditStudy(fs, { judge: { a: { plan: 3, fetch: 2, write: 1 }, b: { plan: 1 } } }, 7, 200);
    expect(audit.signals.map((s) => s.name)).toEqual(['fix-alone', 'leave-one-out', 'last touch', 'last step', 'first error', 'judge']);
    const judge = audit.signals[5];
    expect([judge.cases, judge.used, judge.undefined, judge.fidelity.median]).toEqual([2, 1, 1, 1]);
    expect(audit.signals[0].fidelity.median).toBe(1);
  });
});

describe('the LLM judge\'s score', () => {
  it('is the softmax probability of "yes" over the two options (by hand: 1 / (1 + e^(no - yes)))', async () => {
    const { judgeScore, judgeMessages } = await import('./judge-prompt.ts');
    // 1 / (1 + e^-2) = 0.8807970779778823 (python3: 1/(1+math.exp(-2)))
    expect(judgeScore({ yes: -0.1, no: -2.1 })).toBeCloseTo(0.8807970779778823, 12);
    expect(judgeScore({ yes: -Infinity, no: -0.1 })).toBe(0);
    expect(judgeScore({ yes: -0.1, no: -Infinity })).toBe(1);
    const r = failure('q', [0.6, 0.3, 0.1], { factualOutputs: { plan: 'p', fetch: { doc: 1 }, write: 'w' } });
    const messages = judgeMessages('Be strict.', r, { question: 'why' }, 'fetch');
    expect(messages[0]).toEqual({ role: 'system', content: 'Be strict.' });
    expect(messages[1].content).toContain('Step under review: "fetch".\nIts output: {"doc":1}');
    expect(messages[1].content).toContain('1. plan: p\n2. fetch: {"doc":1}\n3. write: w');
  });
});
