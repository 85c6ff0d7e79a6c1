import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import { runCaseRound } from './case-round.ts';
import { recordedWarmUpCase, startWarmUp, WARM_UP_FILE, WARM_UP_SOURCE, warmUpCases, WARM_UP_CASES } from './warm-up.ts';

describe('the engine warm-up of a page worker', () => {
  it('analyses its own study as recorded runs without errors or mismatches, and some of its cases fail (so attribution runs)', () => {
    const cases = warmUpCases().map(recordedWarmUpCase);
    expect(cases.every((c) => c.outputs !== undefined && Object.keys(c.observed ?? {}).length > 0)).toBe(true);
    const results = cases.map((c) => runCaseRound(WARM_UP_SOURCE, WARM_UP_FILE, c, DEFAULT_SETTINGS, undefined));
    expect(results.every((r) => r.kind === 'result' && r.result.error === undefined && (r.result.mismatches ?? []).length === 0)).toBe(true);
    const failed = results.filter((r) => r.kind === 'result' && r.result.failed && r.result.shapley !== undefined).length;
    expect(failed).toBeGreaterThan(WARM_UP_CASES / 4);
    expect(failed).toBeLessThan(WARM_UP_CASES);
  });

  it('runs every case, one per task, when nothing stops it', async () => {
    let tasks = 0;
    const warm = startWarmUp(async () => {
      tasks += 1;
    });
    expect(await warm.done).toBe(WARM_UP_CASES);
    expect(tasks).toBe(WARM_UP_CASES);
  });

  it('stops at the next task once stopped (a call from the page came)', async () => {
    let tasks = 0;
    let warm: { stop(): void } | null = null;
    const started = startWarmUp(async () => {
      tasks += 1;
      if (tasks === 3) warm?.stop();
    });
    warm = started;
    expect(await started.done).toBe(2);
  });

  it('settles, never rejects, when something in it throws (a rejection would be charged to the next case)', async () => {
    let tasks = 0;
    const warm = startWarmUp(async () => {
      tasks += 1;
      if (tasks === 2) throw new Error('the host is shutting down');
    });
    await expect(warm.done).resolves.toBe(1);
  });
});
