import { describe, expect, it } from 'vitest';
import { parseRunsHash, runsHash } from './runs-address.svelte.ts';

describe('the run view address', () => {
  it('names the list, a run and a step, with run and step ids escaped', () => {
    expect(runsHash({ key: null, stepId: null })).toBe('runs');
    expect(runsHash({ key: 'hand/12', stepId: null })).toBe('runs/hand%2F12');
    expect(runsHash({ key: 'hand/12', stepId: '3' })).toBe('runs/hand%2F12/3');
    // A run's "Blame this run" setup.
    expect(runsHash({ key: 'hand/12', stepId: null, setup: true })).toBe('blame/hand%2F12');
  });

  it('reads back what it writes, and ignores other addresses', () => {
    for (const place of [{ key: null, stepId: null }, { key: 'hand/12', stepId: null }, { key: 'a b#c', stepId: 'x/y' }]) expect(parseRunsHash(`#${runsHash(place)}`)).toEqual(place);
    expect(parseRunsHash('#view=cases')).toBeNull();
    expect(parseRunsHash('')).toBeNull();
    expect(parseRunsHash('#runs/%E0%A4%A')).toEqual({ key: null, stepId: null });
    expect(parseRunsHash('#blame/a%20b%2Fc')).toEqual({ key: 'a b/c', stepId: null, setup: true });
    expect(parseRunsHash('#blame/%E0%A4%A')).toEqual({ key: null, stepId: null });
    expect(parseRunsHash('#session=x&view=replay')).toBeNull();
  });
});
