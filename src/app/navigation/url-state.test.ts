import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { changedSettings, emptyUrlState, fromHash, toHash } from './url-state.ts';

describe('the address state', () => {
  it('leaves defaults out, so the batch view of a fresh study has an empty hash', () => {
    expect(toHash(emptyUrlState())).toBe('');
    expect(fromHash('')).toEqual(emptyUrlState());
  });

  it('round-trips a case view with filter, ascending step sort, session, compare and settings', () => {
    const state = {
      ...emptyUrlState(),
      view: 'case',
      caseId: 'c 7&x',
      filter: 'c1',
      onlyFailing: true,
      sort: { by: 'step' as const, step: 'retrieve:v2', dir: 'asc' as const },
      session: 'abc',
      compare: 'def',
      settings: { mode: 'posterior' as const, worlds: 16 },
    };
    const hash = toHash(state);
    expect(hash).toContain('view=case');
    expect(fromHash(`#${hash}`)).toEqual(state);
  });

  it('falls back to defaults for a malformed sort, and drops the settings for a malformed number, naming it', () => {
    const state = fromHash('sort=step:sideways:x&worlds=many&mode=prior&view=cases');
    expect(state.sort).toEqual({ by: 'status' });
    expect(state.settings).toEqual({});
    expect(state.settingsProblem).toBe('address.worlds: expected a whole number from 1 to 100000, got "many"');
    expect(state.view).toBe('cases');
  });

  it('writes no budget or cap as none, and reads it back', () => {
    const state = { ...emptyUrlState(), settings: { budget: 50, maxPermutations: Number.POSITIVE_INFINITY } };
    expect(toHash(state)).toBe('budget=50&maxPermutations=none');
    expect(fromHash(toHash(state))).toEqual(state);
  });

  it('carries only the settings that differ from the defaults', () => {
    expect(changedSettings({ ...DEFAULT_SETTINGS, mode: 'prior', seed: 3 }, DEFAULT_SETTINGS)).toEqual({ mode: 'prior', seed: 3 });
    // Optional settings turned back off (0, false) are their defaults too.
    expect(changedSettings({ ...DEFAULT_SETTINGS, tieTolerance: 0, interactions: false }, DEFAULT_SETTINGS)).toEqual({});
    expect(changedSettings({ ...DEFAULT_SETTINGS, tieTolerance: 0.1, interactions: true }, DEFAULT_SETTINGS)).toEqual({ tieTolerance: 0.1, interactions: true });
  });

  it('carries the fix each step uses, one entry per step, whatever characters the names hold', () => {
    const state = { ...emptyUrlState(), demo: 'refund-policy', settings: { fixChoice: { retriever: 'newest on ties', 'a=b&c': 'x&y=z', __proto__step: 'p' } } };
    const hash = toHash(state);
    expect(hash).toContain('fix.retriever=newest+on+ties');
    expect(fromHash(hash)).toEqual(state);
    // A step named __proto__ is an own entry of the choice, not the object's prototype.
    const proto = fromHash('fix.__proto__=first').settings.fixChoice!;
    expect(Object.hasOwn(proto, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    // A bare "fix." names no step.
    expect(fromHash('fix.=x').settings).toEqual({});
  });

  it('a link carries the fix choice a study made, and none when it made none', () => {
    expect(changedSettings({ ...DEFAULT_SETTINGS, fixChoice: { retriever: 'newest on ties' } }, DEFAULT_SETTINGS)).toEqual({ fixChoice: { retriever: 'newest on ties' } });
    expect(changedSettings({ ...DEFAULT_SETTINGS, fixChoice: {} }, DEFAULT_SETTINGS)).toEqual({});
  });
});
