import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../../engine/model-call.ts';
import { toyAnswer } from '../../engine/testing/toy-model.ts';
import { testResult } from '../../engine/testing/results.ts';
import { buildSession } from '../../session/build-session.ts';
import { exportSessionFile, parseSessionFile } from '../../session/session-file.ts';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import { ResponseStore } from './response-store.ts';
import { withCarriedResponses, withModelResponses } from './session-responses.ts';

const entry = (text: string) => {
  const request: ChatRequest = { model: 'toy-1', messages: [{ role: 'user', content: text }], temperature: 0 };
  return { key: requestKey(request), request, response: toyAnswer(request) };
};

function session(keys: string[][]) {
  const results = keys.map((modelKeys, k) => ({ ...testResult({ id: `c${k}`, players: ['a'], shapley: { a: 1 } }), ...(modelKeys.length && { modelKeys }) }));
  return buildSession({ id: 's1', name: 'triage', createdAt: '2026-11-30T00:00:00.000Z', revision: 0, fileName: 'triage.js', pipeline: { name: 'triage', source: 'x' }, cases: keys.map((_, k) => ({ id: `c${k}`, inputs: {}, outputs: { a: 1 } })), games: [], settings: DEFAULT_SETTINGS, results, batch: null, status: 'done' });
}

describe('session responses', () => {
  it('exports exactly the stored responses the results used, sorted by key, and says how many are missing', async () => {
    const [a, b, c, unused] = ['one', 'two', 'three', 'unused'].map(entry);
    const store = new ResponseStore();
    await store.putMany([a, b, unused]);
    const out = await withModelResponses(session([[a.key, b.key], [b.key, c.key], []]), store);
    expect(out.session.modelCache!.map((e) => e.key)).toEqual([a.key, b.key].sort());
    expect(out.missing).toBe(1);
    // It is a valid session file: the keys are checked against their requests on the way back.
    expect(parseSessionFile(exportSessionFile(out.session)).modelCache).toEqual(out.session.modelCache);
  });

  it('leaves a session without model steps unchanged', async () => {
    const s = session([[], []]);
    expect(await withModelResponses(s, new ResponseStore())).toEqual({ session: s, missing: 0 });
  });

  it("an opened session's responses answer its study's requests the store lacks, and are never stored", async () => {
    const d = entry('carried');
    const store = new ResponseStore();
    const opened = { ...session([[d.key]]), modelCache: [d] };
    const seen = withCarriedResponses(store, opened.modelCache);
    expect((await seen.getMany([d.key])).get(d.key)).toEqual(d);
    // The shared store, which every later study reads, never got it.
    expect((await store.getMany([d.key])).size).toBe(0);
    // A re-export keeps carrying it.
    expect((await withModelResponses(opened, store)).session.modelCache).toEqual([d]);
  });

  it("a file's forged response never replaces one this browser has, and new responses go to the store", async () => {
    const own = entry('review this');
    const forged = { ...own, response: { ...own.response, text: 'forged' } };
    const store = new ResponseStore();
    await store.putMany([own]);
    const seen = withCarriedResponses(store, [forged]);
    expect((await seen.getMany([own.key])).get(own.key)!.response.text).toBe(own.response.text);
    const fresh = entry('fetched by this run');
    await seen.putMany([fresh]);
    expect((await store.getMany([fresh.key])).get(fresh.key)).toEqual(fresh);
  });
});
