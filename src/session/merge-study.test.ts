import { describe, expect, it } from 'vitest';
import { aggregateBatch } from '../engine/batch.ts';
import { buildSession } from './build-session.ts';
import { mergeStudySessions, StudyMergeError } from './merge-study.ts';
import { shardOf } from './shard.ts';
import { studyFingerprint } from './study-fingerprint.ts';
import { exportSessionFile, parseSessionFile } from './session-file.ts';
import { result, SETTINGS } from './testing/sample-session.ts';
import type { Session } from './types.ts';

const CASES = ['a', 'b', 'c', 'd', 'e'].map((id, k) => ({ id, inputs: { q: id }, seed: k + 1 }));
/** Results that differ per case, so a wrong order changes the batch. */
const RESULTS = CASES.map((c, k) => result(c.id, k !== 1, { shapley: { planner: k / 10, retriever: 1 - k / 10 } }));
const PIPELINE = { name: 'p', source: 'export default {}' };

function shardSession(index: number, count: number, settings = SETTINGS): Session {
  const study = { pipeline: PIPELINE, cases: CASES, settings };
  const results = shardOf(RESULTS, { index, count });
  return buildSession({
    id: `s${index}`, name: 'p', createdAt: '2026-01-01T10:00:00.000Z', fileName: 't.json', ...study, results,
    batch: aggregateBatch(results, { delta: settings.delta, bound: 'normal' }), status: 'done',
    study: { fingerprint: studyFingerprint(study), shard: { index, count }, batchBound: 'normal' },
  });
}

/** Through the file format, as the command reads them. */
const viaFile = (s: Session): Session => parseSessionFile(exportSessionFile(s));

describe('mergeStudySessions', () => {
  it('puts the cases back in study order and aggregates the batch as one run would', () => {
    const files = [3, 1, 2].map((i) => ({ file: `s${i}.json`, session: viaFile(shardSession(i, 3)) }));
    const { session, missing } = mergeStudySessions(files);
    expect(missing).toEqual([]);
    expect(session.results.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(session.results).toEqual(RESULTS);
    expect(session.batch).toEqual(aggregateBatch(RESULTS, { delta: SETTINGS.delta, bound: 'normal' }));
    expect(session.status).toBe('done');
    expect(session.study?.shard).toBeUndefined();
  });

  it('refuses a file of another study, naming it and the setting that differs', () => {
    const other = shardSession(2, 3, { ...SETTINGS, worlds: SETTINGS.worlds + 1 });
    expect(() => mergeStudySessions([{ file: 'one.json', session: shardSession(1, 3) }, { file: 'two.json', session: other }])).toThrow(
      /"two\.json" is not the same study as "one\.json": other settings: worlds \d+, not \d+/,
    );
  });

  it('refuses a file whose fingerprint does not match its contents', () => {
    const edited = shardSession(2, 3);
    edited.cases = [...CASES.slice(0, 4), { id: 'e', inputs: { q: 'changed' }, seed: 5 }];
    expect(() => mergeStudySessions([{ file: 'one.json', session: shardSession(1, 3) }, { file: 'edited.json', session: edited }])).toThrow(/"edited\.json": its study fingerprint does not match/);
  });

  it('names the differing case when the cases differ', () => {
    const a = shardSession(1, 3);
    const b = { ...shardSession(2, 3), cases: CASES.map((c) => (c.id === 'c' ? { ...c, seed: 99 } : c)) };
    delete b.study;
    expect(() => mergeStudySessions([{ file: 'a.json', session: a }, { file: 'b.json', session: b }])).toThrow(/case 3 \("c"\) differs/);
  });

  it('refuses a shard given twice, and overlapping results', () => {
    expect(() => mergeStudySessions([{ file: 'x.json', session: shardSession(2, 3) }, { file: 'y.json', session: shardSession(2, 3) }])).toThrow(/"y\.json" is shard 2\/3 again \(as is "x\.json"\)/);
    const whole = { ...shardSession(1, 1) };
    delete whole.study!.shard;
    expect(() => mergeStudySessions([{ file: 'whole.json', session: whole }, { file: 's2.json', session: shardSession(2, 3) }])).toThrow(/overlap: both have a result for case "b"/);
  });

  it('refuses a missing shard by number, and merges what is there when allowed', () => {
    const files = [1, 3].map((i) => ({ file: `s${i}.json`, session: shardSession(i, 3) }));
    expect(() => mergeStudySessions(files)).toThrow(/missing shard 2\/3: 2 of 5 cases have no result \("b", "e"\)/);
    const partial = mergeStudySessions(files, { allowPartial: true });
    expect(partial.missing).toEqual(['b', 'e']);
    expect(partial.session.results.map((r) => r.id)).toEqual(['a', 'c', 'd']);
    expect(partial.session.status).toBe('idle');
  });

  it('refuses shards of different splits', () => {
    expect(() => mergeStudySessions([{ file: 'a.json', session: shardSession(1, 2) }, { file: 'b.json', session: shardSession(2, 3) }])).toThrow(StudyMergeError);
  });
});
