import { describe, expect, it } from 'vitest';
import { runGroupName, runGroupSize } from './describe-run-group.ts';

const file = (fileName: string, runIds: string[] = ['r']) => ({ fileName, size: 1, runIds });

describe('the kept trace files list', () => {
  it('names one file, a folder of files, or the first files of a mixed group', () => {
    expect(runGroupName({ files: [file('refund.trace.json')] })).toBe('refund.trace.json');
    expect(runGroupName({ files: [file('whowhen/hand/1.json'), file('whowhen/algo/2.json')] })).toBe('2 files in whowhen/');
    expect(runGroupName({ files: [file('a.json'), file('b.json')] })).toBe('2 files: a.json, b.json');
    expect(runGroupName({ files: [file('a.json'), file('x/b.json'), file('c.json')] })).toBe('3 files: a.json, x/b.json, …');
  });

  it('counts the runs and the bytes kept', () => {
    expect(runGroupSize({ files: [file('a.json', ['r1', 'r2']), file('p.json', [])], size: 300 })).toBe('2 runs · 1 kB');
    // 1 468 006 bytes / 1 048 576 = 1.400 MB.
    expect(runGroupSize({ files: [file('a.json')], size: 1_468_006 })).toBe('1 run · 1.4 MB');
    expect(runGroupSize({ files: [file('a.json')], size: 10_240 })).toBe('1 run · 10 kB');
  });
});
