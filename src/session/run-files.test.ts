import { describe, expect, it } from 'vitest';
import { findStoredRun, groupRunFiles, groupsToEvict, type StoredRunGroup } from './run-files.ts';

const record = (fileName: string, group: string, order: number, openedAt: string, size: number, runIds: string[]) => ({ fileName, group, order, openedAt, size, runIds });

describe('groupRunFiles', () => {
  it('groups records as opened, newest group first, files in their order, sizes summed', () => {
    const groups = groupRunFiles([
      record('b.json', 'g1', 1, '2026-01-01T00:00:01Z', 5, ['b']),
      record('c.json', 'g2', 0, '2026-01-01T00:00:02Z', 7, ['c']),
      record('a.json', 'g1', 0, '2026-01-01T00:00:01Z', 3, ['a']),
    ]);
    expect(groups).toEqual([
      { id: 'g2', openedAt: '2026-01-01T00:00:02Z', size: 7, files: [{ fileName: 'c.json', size: 7, runIds: ['c'] }] },
      { id: 'g1', openedAt: '2026-01-01T00:00:01Z', size: 8, files: [{ fileName: 'a.json', size: 3, runIds: ['a'] }, { fileName: 'b.json', size: 5, runIds: ['b'] }] },
    ]);
  });
});

describe('findStoredRun', () => {
  const groups: StoredRunGroup[] = [
    { id: 'new', openedAt: '2', size: 1, files: [{ fileName: 'x.json', size: 1, runIds: ['r1'] }] },
    { id: 'old', openedAt: '1', size: 2, files: [{ fileName: 'y.json', size: 1, runIds: ['r1', 'r2'] }, { fileName: 'hand/3.json', size: 1, runIds: ['hand/3'] }] },
  ];
  it('finds a run by its id, newest group first', () => {
    expect(findStoredRun(groups, 'r1')).toEqual({ group: 'new', fileName: 'x.json', runId: 'r1' });
    expect(findStoredRun(groups, 'r2')).toEqual({ group: 'old', fileName: 'y.json', runId: 'r2' });
    expect(findStoredRun(groups, 'hand/3')).toEqual({ group: 'old', fileName: 'hand/3.json', runId: 'hand/3' });
  });
  it('finds a key the run view qualified with its file (ids repeated across open files)', () => {
    expect(findStoredRun(groups, 'y.json r1')).toEqual({ group: 'old', fileName: 'y.json', runId: 'r1' });
    expect(findStoredRun(groups, 'y.json r1 (2)')).toEqual({ group: 'old', fileName: 'y.json', runId: 'r1' });
  });
  it('finds nothing for other keys', () => {
    expect(findStoredRun(groups, 'r3')).toBeNull();
    expect(findStoredRun(groups, 'y.json r1 (x)')).toBeNull();
    expect(findStoredRun(groups, 'y.json')).toBeNull();
    expect(findStoredRun([], 'r1')).toBeNull();
  });
});

describe('groupsToEvict', () => {
  const g = (id: string, size: number): StoredRunGroup => ({ id, openedAt: id, size, files: [] });
  it('drops the oldest groups until the total fits, never the one just kept', () => {
    // Newest first: 40 + 30 + 20 + 10 = 100 bytes.
    const groups = [g('4', 40), g('3', 30), g('2', 20), g('1', 10)];
    expect(groupsToEvict(groups, 100, '4')).toEqual([]);
    expect(groupsToEvict(groups, 75, '4')).toEqual(['1', '2']);
    expect(groupsToEvict(groups, 40, '4')).toEqual(['1', '2', '3']);
    // The kept group is skipped even when it is the oldest.
    expect(groupsToEvict(groups, 60, '1')).toEqual(['2', '3']);
  });
});
