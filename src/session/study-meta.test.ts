import { describe, expect, it } from 'vitest';
import { FormatError } from '../formats/format-error.ts';
import { exportSessionFile, parseSessionFile } from './session-file.ts';
import { session } from './testing/sample-session.ts';
import { labelProblem, pipelineVersionOf, recordedAtOfRuns, studyMetaOf, tagsProblem, tagValue, validateStudyMeta } from './study-meta.ts';
import { changedFields, fieldsOf } from './merge-session.ts';
import { mergeStudySessions } from './merge-study.ts';
import { studyFingerprint } from './study-fingerprint.ts';
import type { StudyMeta } from './types.ts';
import { thrownBy } from '../engine/testing/thrown.ts';

const META: StudyMeta = { version: 1, recordedAt: '2026-03-02T08:00:00.000Z', recordedFrom: 'given', pipelineVersion: 'v7', tags: ['prod', 'model=gpt-4.1'] };

const pathOf = (work: () => unknown): string => thrownBy(work, FormatError).path;

describe('study metadata in session files', () => {
  it('round-trips through a session file, and a session without it is written as before', () => {
    expect(parseSessionFile(exportSessionFile(session({ meta: META }))).meta).toEqual(META);
    const plain = exportSessionFile(session());
    expect(plain).not.toContain('"meta"');
    expect(parseSessionFile(plain)).not.toHaveProperty('meta');
  });

  it('refuses a bad field with its JSON path', () => {
    const withMeta = (meta: unknown) => {
      const file = JSON.parse(exportSessionFile(session()));
      file.meta = meta;
      return () => parseSessionFile(JSON.stringify(file));
    };
    expect(pathOf(withMeta({ ...META, version: 2 }))).toBe('meta.version');
    expect(pathOf(withMeta({ ...META, recordedAt: 'last tuesday' }))).toBe('meta.recordedAt');
    expect(pathOf(withMeta({ ...META, recordedFrom: 'guess' }))).toBe('meta.recordedFrom');
    expect(pathOf(withMeta({ ...META, pipelineVersion: '' }))).toBe('meta.pipelineVersion');
    expect(pathOf(withMeta({ ...META, tags: ['prod', 'model=a', 'model=b'] }))).toBe('meta.tags[2]');
    expect(pathOf(withMeta({ ...META, tags: ['bad\u001b[31m'] }))).toBe('meta.tags[0]');
    expect(pathOf(withMeta({ ...META, extra: 1 }))).toBe('meta.extra');
    expect(pathOf(withMeta({ ...META, tags: 'prod' }))).toBe('meta.tags');
  });

  it('is a field a tab edits as a whole (autosave merges it three ways)', () => {
    const base = session();
    expect(changedFields(fieldsOf(base), fieldsOf({ ...base, meta: META }))).toEqual(['meta']);
  });

  it('shards merge to the earliest recording, keeping the first shard\u2019s label and tags', () => {
    const fingerprint = studyFingerprint(session());
    const shard = (index: number, recordedAt: string, results: ReturnType<typeof session>['results']) =>
      session({ results, study: { fingerprint, shard: { index, count: 2 } }, meta: { ...META, recordedAt } });
    const full = session();
    const merged = mergeStudySessions([
      { file: 'a', session: shard(1, '2026-03-03T00:00:00.000Z', full.results.slice(0, 1)) },
      { file: 'b', session: shard(2, '2026-03-01T00:00:00.000Z', full.results.slice(1)) },
    ], { allowPartial: true });
    expect(merged.session.meta).toEqual({ ...META, recordedAt: '2026-03-01T00:00:00.000Z' });
  });
});

describe('study metadata helpers', () => {
  it('reads an old session as recorded when it was created, with no tags', () => {
    expect(studyMetaOf(session())).toEqual({ version: 1, recordedAt: '2026-01-01T10:00:00.000Z', recordedFrom: 'created', tags: [] });
    expect(studyMetaOf(session({ meta: META }))).toBe(META);
  });

  it('names the version by its label, else by the hash of the definition (one edit, another version)', () => {
    expect(pipelineVersionOf(session({ meta: META }))).toBe('v7');
    const a = pipelineVersionOf(session());
    expect(a).toMatch(/^def:[0-9a-f]{12}$/);
    expect(pipelineVersionOf(session())).toBe(a);
    expect(pipelineVersionOf(session({ pipeline: { name: 'refund-policy', source: 'export default { name: "refund-policy", steps: [ ] }' } }))).not.toBe(a);
    expect(pipelineVersionOf(session({ pipeline: undefined }))).toBe('games');
  });

  it('reads tag values and refuses ambiguous or unprintable tags', () => {
    expect(tagValue(['prod', 'model=gpt-4.1', 'note=a=b'], 'model')).toBe('gpt-4.1');
    expect(tagValue(['prod'], 'prod')).toBe('');
    expect(tagValue(['production'], 'prod')).toBeUndefined();
    expect(tagValue(['note=a=b'], 'note')).toBe('a=b');
    expect(tagsProblem(['a', 'a=1'])?.problem).toMatch(/second tag with the key "a"/);
    expect(labelProblem(' x', 'tag')).toMatch(/space/);
    expect(labelProblem('=x', 'tag')).toMatch(/key/);
    expect(labelProblem('x'.repeat(81), 'version label')).toMatch(/at most 80/);
    expect(tagsProblem(['prod', 'model=gpt-4.1'])).toBeNull();
  });

  it('takes the earliest step start of recorded runs, none when no step has a time', () => {
    expect(recordedAtOfRuns([{ steps: [{ start: null }, { start: Date.UTC(2026, 2, 5) }] }, { steps: [{ start: Date.UTC(2026, 2, 4, 12) }] }])).toBe('2026-03-04T12:00:00.000Z');
    expect(recordedAtOfRuns([{ steps: [{ start: null }] }])).toBeUndefined();
  });
});
