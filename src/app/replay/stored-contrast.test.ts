import { describe, expect, it } from 'vitest';
import { sampleContrast } from '../../session/testing/sample-contrast.ts';
import { withRunContrast } from './stored-contrast.ts';

const report = (run: string) => {
  const { commitment, contrast, errors } = sampleContrast(run).runs[0];
  return { commitment, contrast, errors };
};

describe('withRunContrast', () => {
  it('adds a run\'s contrast to a study that has none', () => {
    expect(withRunContrast(undefined, 35, 'q1', report('q1'), ['q1', 'q2'])).toEqual(sampleContrast('q1'));
  });

  it('replaces that run\'s earlier contrast and keeps the others, in case order', () => {
    const first = withRunContrast(undefined, 35, 'q2', report('q2'), ['q1', 'q2']);
    const both = withRunContrast(first, 35, 'q1', report('q1'), ['q1', 'q2']);
    expect(both.runs.map((r) => r.run)).toEqual(['q1', 'q2']);
    const redone = withRunContrast(both, 35, 'q2', { ...report('q2'), commitment: null }, ['q1', 'q2']);
    expect(redone.runs.map((r) => [r.run, r.commitment?.index ?? null])).toEqual([['q1', 1], ['q2', null]]);
  });

  it('a contrast with another number of replays per arm replaces the runs made with the old one', () => {
    const first = withRunContrast(undefined, 35, 'q1', report('q1'), ['q1', 'q2']);
    const other = withRunContrast(first, 10, 'q2', report('q2'), ['q1', 'q2']);
    expect([other.replays, other.runs.map((r) => r.run)]).toEqual([10, ['q2']]);
  });
});
