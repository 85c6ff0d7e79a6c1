import { describe, expect, it } from 'vitest';
import { aggregateBatch } from './batch.ts';
import { testResult } from './testing/results.ts';
import { computeTrends, parseTrendGrouping, trendDigest, type TrendDigest } from './trends.ts';
import type { CaseResult } from './types.ts';
import { blamedFailures, plantedDriftStudies, TREND_STEPS } from './testing/trend-results.ts';

const STEPS = TREND_STEPS;
const failures = blamedFailures;

function study(id: string, recordedAt: string, results: CaseResult[], extra: Partial<{ pipelineVersion: string; tags: string[] }> = {}): TrendDigest {
  return trendDigest({ id, name: 'refund', recordedAt, pipelineVersion: extra.pipelineVersion ?? 'v1', tags: extra.tags ?? [] }, results);
}

function plantedDrift(): TrendDigest[] {
  return plantedDriftStudies().map((s) => study(s.id, s.recordedAt, s.results));
}

describe('computeTrends: planted drift', () => {
  const trends = computeTrends(plantedDrift(), { grouping: { by: 'week' } });
  const byStep = new Map(trends.steps.map((s) => [s.step, s]));

  it('pools each week\u2019s two studies into one period', () => {
    expect(trends.periods).toHaveLength(10);
    expect(trends.periods[0]).toMatchObject({ key: '2026-01-05', label: 'week of 2026-01-05', studies: ['w0d0', 'w0d3'], failures: 200, analyzed: 200 });
    expect(byStep.get('retriever')!.points[0]!.share).toBeCloseTo(0.2, 10);
    expect(byStep.get('retriever')!.points[9]!.share).toBeCloseTo(0.6, 10);
  });

  it('finds the drift and marks it, and never marks the flat step', () => {
    const retriever = byStep.get('retriever')!;
    const planner = byStep.get('planner')!;
    expect(retriever.drift!.marked).toBe(true);
    expect(retriever.drift!.shareChange).toBeCloseTo(0.4, 10);
    expect(retriever.drift!.ci[0]).toBeGreaterThan(0.3);
    expect(planner.points.every((p) => p!.share === 0.3)).toBe(true);
    expect(planner.drift!.marked).toBe(false);
    expect(planner.changes.some((c) => c.marked || c.fixAloneMarked)).toBe(false);
    // Writer lost what retriever gained (shares add up to 1): its drift is real too, downwards.
    expect(trends.drifting).toEqual(['retriever', 'writer']);
    expect(byStep.get('writer')!.drift!.shareChange).toBeCloseTo(-0.4, 10);
  });

  it('says the last week in one sentence, with the change from the week before', () => {
    expect(trends.headline).toBe('week of 2026-03-09: retriever caused 60 % [53, 67] of 200 failures; fixing it alone resolves 60 %; 56 % the week before (no clear change)');
    const two = computeTrends(plantedDrift().filter((d) => d.id.startsWith('w0') || d.id.startsWith('w9')), { grouping: { by: 'week' } });
    expect(two.headline).toMatch(/; up from 20 % in week of 2026-01-05$/);
  });
});

describe('computeTrends: intervals', () => {
  it('one study in one period has the batch\u2019s interval and share', () => {
    const results = failures('a', 50, { retriever: 20, planner: 10 });
    for (const bound of ['normal', 'bernstein', 'anytime'] as const) {
      const batch = aggregateBatch(results, { delta: 0.05, bound });
      const trends = computeTrends([study('a', '2026-02-02T00:00:00Z', results)], { grouping: { by: 'day' }, bound });
      for (const s of batch.steps) {
        const point = trends.steps.find((t) => t.step === s.step)!.points[0]!;
        expect(point.share).toBeCloseTo(s.share, 12);
        expect(point.ci[0]).toBeCloseTo(s.ci[0], 12);
        expect(point.ci[1]).toBeCloseTo(s.ci[1], 12);
        expect(point.fixAloneRate).toBe(s.fixAloneRate);
      }
    }
  });

  it('divides by the repairable mass: unfixable failures count in the failures but not in the share', () => {
    const fixable = failures('f', 10, { retriever: 5, planner: 5 });
    const unfixable = [0, 1].map((k) => testResult({ id: `u${k}`, players: STEPS, vEmpty: 0, vAll: 0, fixable: false }));
    const trends = computeTrends([study('s', '2026-02-02T00:00:00Z', [...fixable, ...unfixable])], { grouping: { by: 'day' } });
    expect(trends.periods[0].analyzed).toBe(12);
    expect(trends.steps.find((s) => s.step === 'retriever')!.points[0]!.share).toBeCloseTo(0.5, 12);
  });

  it('a step missing from a study counts 0 in its failures; one missing from a whole period has no point', () => {
    const twoSteps = (id: string, n: number) => Array.from({ length: n }, (_, k) => testResult({ id: `${id}${k}`, players: ['planner', 'writer'], shapley: { planner: 1, writer: 0 }, fixAlone: { planner: 1, writer: 0 } }));
    const digests = [
      study('old', '2026-02-02T00:00:00Z', twoSteps('o', 4)),
      study('new', '2026-02-09T00:00:00Z', failures('n', 4, { retriever: 4 })),
      study('new2', '2026-02-10T00:00:00Z', twoSteps('p', 4)),
    ];
    const trends = computeTrends(digests, { grouping: { by: 'week' } });
    const retriever = trends.steps.find((s) => s.step === 'retriever')!;
    expect(retriever.points[0]).toBeNull();
    expect(retriever.points[1]!.share).toBe(0.5);
    expect(retriever.changes).toEqual([]);
    expect(retriever.drift).toBeNull();
  });
});

describe('computeTrends: groupings', () => {
  const digests = [
    study('a', '2026-01-30T12:00:00Z', failures('a', 10, { retriever: 2 }), { pipelineVersion: 'v2', tags: ['model=gpt-4.1'] }),
    study('b', '2026-02-01T12:00:00Z', failures('b', 10, { retriever: 4 }), { pipelineVersion: 'v1', tags: ['prod', 'model=gpt-4o'] }),
    study('c', '2026-02-03T12:00:00Z', failures('c', 10, { retriever: 6 }), { pipelineVersion: 'v2' }),
  ];

  it('by month, day, version (in order of first recording) and tag value', () => {
    expect(computeTrends(digests, { grouping: { by: 'month' } }).periods.map((p) => p.key)).toEqual(['2026-01', '2026-02']);
    expect(computeTrends(digests, { grouping: { by: 'day' } }).periods.map((p) => p.key)).toEqual(['2026-01-30', '2026-02-01', '2026-02-03']);
    const versions = computeTrends(digests, { grouping: { by: 'version' } });
    expect(versions.periods.map((p) => [p.label, p.studies])).toEqual([['version v2', ['a', 'c']], ['version v1', ['b']]]);
    const models = computeTrends(digests, { grouping: { by: 'tag', key: 'model' } });
    expect(models.periods.map((p) => p.label)).toEqual(['model=gpt-4.1', 'model=gpt-4o', 'no model tag']);
    expect(computeTrends(digests, { grouping: { by: 'tag', key: 'prod' } }).periods.map((p) => p.label)).toEqual(['no prod tag', 'prod']);
  });

  it('parses --by values and names what it accepts', () => {
    expect(parseTrendGrouping('tag:model')).toEqual({ by: 'tag', key: 'model' });
    expect(parseTrendGrouping('week')).toEqual({ by: 'week' });
    expect(parseTrendGrouping('fortnight')).toEqual({ problem: 'expected one of day, week, month, version, tag:KEY, got "fortnight"' });
    expect(parseTrendGrouping('tag:')).toHaveProperty('problem');
  });

  it('a tie at the top names every tied step, as the batch headline does (the refund demo: planner and retriever, 42 % each)', () => {
    const players = ['planner', 'retriever', 'writer', 'reviewer'];
    const refund = [testResult({ id: 'q1', players, shapley: { planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, reviewer: 1 / 12 }, fixAlone: { planner: 1, retriever: 1, writer: 0, reviewer: 0 } })];
    const one = computeTrends([trendDigest({ id: 'a', name: 'refund', recordedAt: '2026-11-30T00:00:00Z', pipelineVersion: 'v1', tags: [] }, refund)], { grouping: { by: 'week' } });
    expect(one.headline).toBe('week of 2026-11-30: planner and retriever caused 42 % each of 1 failure; fixing planner alone resolves 100 %');
  });

  it('no analysed failure: no headline', () => {
    const passing = [testResult({ id: 'x', players: STEPS, failed: false })];
    expect(computeTrends([study('p', '2026-02-02T00:00:00Z', passing)], { grouping: { by: 'week' } }).headline).toBeNull();
    expect(computeTrends([], { grouping: { by: 'week' } })).toMatchObject({ periods: [], steps: [], headline: null });
  });
});
