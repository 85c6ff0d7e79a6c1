import { describe, expect, it } from 'vitest';
import { FormatError } from '../formats/format-error.ts';
import { exportSessionFile, importSessionText, parseSessionFile } from './session-file.ts';
import { mergeStudySessions } from './merge-study.ts';
import { sampleContrast } from './testing/sample-contrast.ts';
import { contrastProblem } from './testing/contrast-problem.ts';
import { result, session } from './testing/sample-session.ts';
import { studyFingerprint } from './study-fingerprint.ts';

const problem = contrastProblem;

describe('a session keeps its single-step contrast', () => {
  it('round-trips through a session file', () => {
    const original = session({ contrast: sampleContrast() });
    const text = exportSessionFile(original);
    expect(JSON.parse(text).contrast.version).toBe(1);
    expect(parseSessionFile(text)).toEqual(original);
  });

  it('is left out when absent or empty, so other sessions are written as before', () => {
    expect(JSON.parse(exportSessionFile(session()))).not.toHaveProperty('contrast');
    const file = JSON.parse(exportSessionFile(session()));
    file.contrast = { version: 1, replays: 3, runs: [] };
    expect(parseSessionFile(JSON.stringify(file))).not.toHaveProperty('contrast');
  });

  it('refuses a malformed contrast, naming the JSON path', () => {
    expect(problem((c) => (c.version = 2))).toMatch(/^contrast\.version: expected contrast version 1, got 2/);
    expect(problem((c) => (c.extra = 1))).toMatch(/^contrast\.extra: unknown field/);
    expect(problem((c) => (c.replays = 0))).toMatch(/^contrast\.replays: /);
    expect(problem((c) => (c.runs[0].run = 'nope'))).toMatch(/^contrast\.runs\[0\]\.run: "nope" is not one of the session's cases/);
    expect(problem((c) => (c.runs[0].contrast[1].kept.failures = 36))).toMatch(/^contrast\.runs\[0\]\.contrast\[1\]\.kept\.failures: expected a whole number from 0 to 35, got 36/);
    expect(problem((c) => (c.runs[0].contrast[1].kept.rate = 0.5))).toMatch(/^contrast\.runs\[0\]\.contrast\[1\]\.kept\.rate: expected 35\/35 = 1, got 0\.5/);
    expect(problem((c) => (c.runs[0].contrast[1].difference = 1))).toMatch(/^contrast\.runs\[0\]\.contrast\[1\]\.difference: /);
    expect(problem((c) => (c.runs[0].contrast[1].ci = [-1.5, 0]))).toMatch(/^contrast\.runs\[0\]\.contrast\[1\]\.ci: expected an interval within \[-1, 1\]/);
    expect(problem((c) => (c.runs[0].contrast[2].regenerated.ci = 'wide'))).toMatch(/^contrast\.runs\[0\]\.contrast\[2\]\.regenerated\.ci: /);
    expect(problem((c) => (c.runs[0].contrast[2].index = 0))).toMatch(/^contrast\.runs\[0\]\.contrast\[2\]\.index: turns must be in order/);
    expect(problem((c) => (c.runs[0].commitment.index = 3))).toMatch(/^contrast\.runs\[0\]\.commitment: turn 3 is not one of the contrast's rows/);
    expect(problem((c) => delete c.runs[0].commitment)).toMatch(/^contrast\.runs\[0\]\.commitment: /);
    expect(problem((c) => (c.runs[0].contrast[0].shapley = 1))).toMatch(/^contrast\.runs\[0\]\.contrast\[0\]\.shapley: unknown field/);
    expect(problem((c) => c.runs.push(c.runs[0]))).toMatch(/^contrast\.runs\[1\]\.run: second contrast for run "q1"/);
    // A commitment is recomputed from the rows: "none" contradicts the Calculator's kept arm (35/35).
    expect(problem((c) => (c.runs[0].commitment = null))).toMatch(/^contrast\.runs\[0\]\.commitment: the rows give turn 1 /);
  });

  it('is kept in an HTML report and read back from it', async () => {
    const { renderReport } = await import('../report/renderReport.ts');
    const original = session({ contrast: sampleContrast() });
    expect(importSessionText(renderReport(original)).contrast).toEqual(original.contrast);
  });

  it('merges the contrasts of shards, each of its own runs, in case order; refuses different replays per arm', () => {
    const shard = (index: number, run: string, replays = 35) => {
      const contrast = { ...sampleContrast(run), replays };
      const s = session({ contrast, results: index === 1 ? [result('q1'), result('q3')] : [result('q2', false)] });
      return { file: `s${index}.json`, session: { ...s, study: { fingerprint: studyFingerprint(s), shard: { index, count: 2 } } } };
    };
    const merged = mergeStudySessions([shard(2, 'q2'), shard(1, 'q1')], { allowPartial: true });
    expect(merged.session.contrast?.runs.map((r) => r.run)).toEqual(['q1', 'q2']);
    expect(() => mergeStudySessions([shard(1, 'q1'), shard(2, 'q2', 10)], { allowPartial: true })).toThrow(/contrast\.replays: 10 replays per arm, but "s1\.json" has 35/);
  });
});
