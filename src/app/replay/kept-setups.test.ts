/**
 * Each run's Blame setup kept in this browser: a setup left and reopened in a new page has its
 * fields back; what is stored and does not validate is neither used nor lost.
 */
import { describe, expect, it } from 'vitest';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { KeptSetups, MAX_KEPT_SETUPS, readKeptSetup, SETUPS_KEY, UNREADABLE_KEY, type SetupStorage } from './kept-setups.ts';
import { ReplaySetup } from './replay-setup.svelte.ts';

const run = () => readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];

function memoryStorage(initial: Record<string, string> = {}): SetupStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

function filled(): ReplaySetup {
  const setup = new ReplaySetup(run(), 'algorithm/7.json');
  setup.players = 'agents';
  setup.setFix(2, 'action:print(6 * 7)\nresample');
  setup.outcomeKind = 'judge';
  setup.expect = '42';
  setup.rubric = 'the answer is 42';
  setup.tools = { file: { fileName: 'tools.js', source: 'export default { python: () => 42 };' }, names: new Set(['python']) };
  setup.models = { default: 'tiny' };
  setup.modelParams = { default: { max_tokens: 64 } };
  return setup;
}

describe('kept setups', () => {
  it('gives a new page the setup as it was left: players, fixes, outcome, stubs and model fields', () => {
    const storage = memoryStorage();
    const left = filled();
    expect(new KeptSetups(storage).save(left.keptKey, left.kept('2026-12-05T00:00:00Z'))).toBe(true);
    const reopened = new ReplaySetup(run(), 'algorithm/7.json');
    const kept = new KeptSetups(storage).load(reopened.keptKey);
    expect(kept).not.toBeNull();
    reopened.restore(kept!);
    expect(reopened.kept('x')).toEqual(left.kept('x'));
    expect([...reopened.tools!.names]).toEqual(['python']);
    expect(reopened.result).toEqual(left.result);
    // Another run (or the same id in another file) has none.
    expect(new KeptSetups(storage).load('other.json q-42')).toBeNull();
  });

  it('does not use a stored setup that does not validate, and keeps it stored as it was', () => {
    const bad = { players: 'everyone', fixes: {}, outcomeKind: 'expect', expect: '', rubric: '', metric: null, tools: null, savedAt: 'x' };
    const storage = memoryStorage({ [SETUPS_KEY]: JSON.stringify({ version: 1, setups: { 'a.json r1': bad } }) });
    const setups = new KeptSetups(storage);
    expect(setups.load('a.json r1')).toBeNull();
    for (const field of [{ fixes: { two: 'x' } }, { tools: { fileName: 't.js', source: '', names: [1] } }, { models: { default: 3 } }, { modelParams: { default: 'x' } }, { metric: { fileName: 'm.js' } }]) {
      expect(readKeptSetup({ ...filled().kept('t'), ...field })).toBeNull();
    }
    const left = filled();
    setups.save(left.keptKey, left.kept('t'));
    const stored = JSON.parse(storage.items.get(SETUPS_KEY)!) as { setups: Record<string, unknown> };
    expect(stored.setups['a.json r1']).toEqual(bad);
    expect(setups.load(left.keptKey)?.expect).toBe('42');
  });

  it('sets aside a store it cannot read (another version, not JSON) before writing, instead of overwriting it', () => {
    for (const text of ['{not json', JSON.stringify({ version: 2, setups: { 'a.json r1': { future: true } } })]) {
      const storage = memoryStorage({ [SETUPS_KEY]: text });
      const setups = new KeptSetups(storage);
      expect(setups.load('a.json r1')).toBeNull();
      const left = filled();
      expect(setups.save(left.keptKey, left.kept('t'))).toBe(true);
      expect(storage.items.get(UNREADABLE_KEY)).toBe(text);
      expect(setups.load(left.keptKey)?.players).toBe('agents');
    }
  });

  it('keeps the newest setups up to its limit, and says so when the storage refuses a write', () => {
    const storage = memoryStorage();
    const setups = new KeptSetups(storage);
    const left = filled();
    for (let k = 0; k <= MAX_KEPT_SETUPS; k++) setups.save(`f.json r${k}`, left.kept(`2026-12-05T00:00:${String(k).padStart(2, '0')}Z`));
    const stored = JSON.parse(storage.items.get(SETUPS_KEY)!) as { setups: Record<string, unknown> };
    expect(Object.keys(stored.setups)).toHaveLength(MAX_KEPT_SETUPS);
    expect(stored.setups['f.json r0']).toBeUndefined();
    const full = new KeptSetups({ getItem: () => null, setItem: () => { throw new DOMException('quota', 'QuotaExceededError'); } });
    expect(full.save(left.keptKey, left.kept('t'))).toBe(false);
    expect(full.problem).toMatch(/could not be kept in this browser/);
  });
});
