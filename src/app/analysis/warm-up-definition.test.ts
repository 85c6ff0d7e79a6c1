import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { analyzeSourceCaseRound, describeForAnalysis } from '../../sandbox/analyze-source.ts';
import { WARM_UP_FILE_NAME, WARM_UP_SOURCE } from './warm-up-definition.ts';

describe('the workers\' warm-up definition', () => {
  it('analyses every case of its own without an error, failures among them (the attribution the workers warm up)', () => {
    // The worker ignores a warm-up that throws (it only costs speed), so a definition broken by a
    // change of the engine or the sandbox would go unnoticed there: it is checked here.
    const { summary } = describeForAnalysis(WARM_UP_SOURCE, WARM_UP_FILE_NAME);
    expect(summary.steps.map((s) => s.name)).toEqual(['classify', 'lookup', 'draft', 'review', 'send']);
    expect(summary.cases).toHaveLength(32);
    const results = summary.cases.map((caseDef) => {
      const round = analyzeSourceCaseRound(WARM_UP_SOURCE, caseDef, { ...DEFAULT_SETTINGS }, new Map(), undefined, WARM_UP_FILE_NAME, { casesDescribed: true });
      if (round.kind !== 'result') throw new Error(`case ${caseDef.id} waits for a model`);
      return round.result;
    });
    expect(results.filter((r) => r.error !== undefined).map((r) => r.error)).toEqual([]);
    const failed = results.filter((r) => r.error === undefined && r.failed);
    expect(failed.length).toBeGreaterThan(4);
    expect(failed.length).toBeLessThan(32);
  });
});
