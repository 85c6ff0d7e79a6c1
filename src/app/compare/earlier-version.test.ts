/**
 * EarlierVersion: the regression game of the open definition against an earlier one, built by the
 * pool (a fake here, answering as the worker does), opened with the open study's cases, and read
 * with the command's engine functions.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { VersionFile } from '../../pool/page/protocol.ts';
import { Navigation } from '../navigation/navigation.svelte.ts';
import type { Study } from '../importing/study.ts';
import type { AnalysisRunner } from '../state/analysis-runner.svelte.ts';
import type { PoolJob } from '../../pool/page/analysis-pool.ts';
import { FakePool } from '../testing/fake-pool.ts';
import { testRunner } from '../testing/model-host.ts';
import { settle } from '../testing/settle.ts';
import { EarlierVersion } from './earlier-version.svelte.ts';

/** Answers as the worker does: a refusal for an earlier file that removes a step, else a game whose first step (blamed by the fake pool) changed. */
class GamePool extends FakePool {
  readonly games: [VersionFile, VersionFile][] = [];
  /** The earlier version (the reverse game) fails every case: each case passing now was fixed by the change. */
  override run(job: PoolJob, signal: AbortSignal) {
    if (job.source !== 'reverse') return super.run(job, signal);
    return super.run({ ...job, items: job.items.map((item) => (item.kind === 'case' ? { ...item, caseDef: { ...item.caseDef, inputs: {} } } : item)) }, signal);
  }
  async regressionGame(after: VersionFile, before: VersionFile) {
    this.games.push([after, before]);
    await Promise.resolve();
    if (before.source.includes('removed'))
      return { ok: false as const, message: 'step "writer" was removed and "judge" (now) reads it: the game cannot leave it out (add a pass-through input)' };
    return {
      ok: true as const,
      source: `export default { name: "desk (regression)" } // steps: retriever, writer, judge`,
      reverseSource: 'reverse',
      steps: [
        { name: 'retriever', change: 'changed' as const },
        { name: 'writer', change: 'changed' as const },
        { name: 'judge', change: 'unchanged' as const },
      ],
      notes: ['the metric changed: the game judges both versions by the later one'],
    };
  }
}

let pool: GamePool;
let runner: AnalysisRunner;
let earlier: EarlierVersion;
const opened: Study[] = [];
const later = 'export default { name: "desk" } // steps: retriever, writer, judge';

beforeEach(async () => {
  pool = new GamePool();
  opened.length = 0;
  runner = testRunner(1, { autosave: { schedule() {} }, navigation: new Navigation(), createPool: () => pool });
  earlier = new EarlierVersion(runner, async (study) => {
    opened.push(study);
    await runner.openStudy(study, { keepNavigation: true });
  });
  const cases = [{ id: 'c1', inputs: {} }, { id: 'c2', inputs: {} }, { id: 'c3', inputs: { pass: true } }];
  await runner.openStudy({ fileName: 'desk.pipeline.js', name: 'desk', pipeline: { name: 'desk', source: later }, definitionFile: 'desk.pipeline.js', cases, games: [] }, { autoRun: false });
});

describe('EarlierVersion', () => {
  it('builds the game of the open definition against the earlier file, opens it with the same cases and reads the new failures as the command does', async () => {
    expect(earlier.possible).toBe(true);
    await earlier.compareWith({ fileName: 'desk-v1.pipeline.js', source: 'export default { name: "desk" }' });
    expect(pool.games).toEqual([[{ fileName: 'desk.pipeline.js', source: later }, { fileName: 'desk-v1.pipeline.js', source: 'export default { name: "desk" }' }]]);
    expect(opened.map((s) => [s.name, s.cases.map((c) => c.id)])).toEqual([['desk against desk-v1.pipeline.js', ['c1', 'c2', 'c3']]]);
    expect(earlier.problem).toBeNull();
    expect(earlier.game?.before).toBe('desk-v1.pipeline.js');
    await settle(() => runner.progress?.status === 'done', 'the game analysed');
    const summary = earlier.summary!;
    // The fake pool blames the first step of every failing case wholly; c3 passes.
    expect(summary.newFailures).toEqual(['c1', 'c2']);
    expect(summary.rises.map((r) => [r.step, r.change, r.rise, r.share])).toEqual([
      ['retriever', 'changed', 1, 1],
      ['writer', 'changed', 0, 0],
    ]);
    expect(earlier.sentences).toEqual(['the "retriever" change causes 100 % of the new failures; reverting it alone fixes 0 %']);
    // The earlier version ran on the one case passing now (c3), and failed it: the change fixed it.
    expect(pool.jobs.map((j) => [j.source, j.items.map((i) => (i.kind === 'case' ? i.caseDef.id : ''))])).toEqual([
      [expect.stringContaining('desk (regression)'), ['c1', 'c2', 'c3']],
      ['reverse', ['c3']],
    ]);
    expect(earlier.summary!.fixed).toEqual(['c3']);
    expect(earlier.summary!.failureRate).toMatchObject({ failuresNow: 2, failuresBefore: 1, newFailures: 2, fixed: 1 });
    expect(earlier.verdict).toMatch(/^regression: \+1 failing cases \[.*\] of 3 \(2 new failures, 1 fixed\); caused by "retriever" \(\+1\.00 /);
    // Other settings: the fixed cases are those of the settings they were found with.
    runner.updateSettings({ seed: 7 });
    expect(earlier.verdict).toBeNull();
  });

  it('shows the refusal of an earlier version that cannot be set against this one, and opens nothing', async () => {
    await earlier.compareWith({ fileName: 'old.js', source: 'removed' });
    expect(earlier.problem).toBe('step "writer" was removed and "judge" (now) reads it: the game cannot leave it out (add a pass-through input)');
    expect(opened).toEqual([]);
    expect(earlier.game).toBeNull();
    expect(runner.study?.pipeline?.source).toBe(later);
  });

  it("takes a stored session's definition, and says so when the session has none", async () => {
    await earlier.compareWithSession({ name: 'runs of May' });
    expect(earlier.problem).toBe('The session "runs of May" has no pipeline definition: the regression game compares two definitions.');
    expect(pool.games).toEqual([]);
    await earlier.compareWithSession({ name: 'desk v1', pipeline: { source: 'export default { name: "desk" }' } });
    expect(pool.games.map(([, before]) => before.fileName)).toEqual(['desk v1 (stored session)']);
    expect(earlier.problem).toBeNull();
    expect(earlier.game?.before).toBe('desk v1 (stored session)');
  });

  it('forgets the game once another study is open', async () => {
    await earlier.compareWith({ fileName: 'desk-v1.pipeline.js', source: 'export default { name: "desk" }' });
    expect(earlier.game).not.toBeNull();
    await runner.openStudy({ fileName: 'other.js', name: 'other', pipeline: { name: 'other', source: 'export default { name: "other" }' }, cases: [{ id: 'x', inputs: {} }], games: [] }, { autoRun: false });
    expect(earlier.game).toBeNull();
    expect(earlier.summary).toBeNull();
  });
});
