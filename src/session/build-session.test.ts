import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../engine/model-call.ts';
import { buildSession } from './build-session.ts';
import { exportSessionFile, parseSessionFile } from './session-file.ts';
import { studyFingerprint } from './study-fingerprint.ts';
import { result, SETTINGS } from './testing/sample-session.ts';

const REQUEST: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 };
const ENTRY = { key: requestKey(REQUEST), request: REQUEST, response: { text: 'hello', finish: 'stop', usage: { input: 1, output: 1 } } };

function sample(extra = {}) {
  const cases = [{ id: 'q1', inputs: { x: 1 } }];
  return buildSession({
    id: 'id', name: 'n', createdAt: '2026-01-01T10:00:00.000Z', updatedAt: '2026-01-01T10:00:00.000Z', fileName: 'f.json',
    cases, settings: { ...SETTINGS, budget: Infinity }, results: [result('q1')], status: 'done', ...extra,
  });
}

describe('buildSession', () => {
  it('leaves out empty optional fields, so older sessions are written as before', () => {
    const s = sample({ pipeline: null, batch: null, games: [], modelCache: [] });
    expect(Object.keys(s)).toEqual(['format', 'version', 'id', 'name', 'createdAt', 'updatedAt', 'fileName', 'cases', 'settings', 'results', 'status', 'revision']);
  });

  it('round-trips the study mark and the model cache through the file', () => {
    // The file's results name the entry they used: the cache keeps only such entries.
    const s = sample({ study: { fingerprint: 'a'.repeat(64), shard: { index: 2, count: 3 }, batchBound: 'normal', range: [0, 1] }, modelCache: [ENTRY], results: [{ ...result('q1'), modelKeys: [ENTRY.key] }] });
    const back = parseSessionFile(exportSessionFile(s));
    expect(back.study).toEqual(s.study);
    expect(back.modelCache).toEqual([ENTRY]);
  });

  it('round-trips what a response records beside its text (tool calls, the model that served it, an alias\'s params)', () => {
    const request: ChatRequest = { ...REQUEST, params: { reasoning_effort: 'low', chat_template_kwargs: { enable_thinking: false } }, tools: [{ type: 'function', function: { name: 'refund' } }] };
    const entry = { key: requestKey(request), request, response: { ...ENTRY.response, toolCalls: [{ name: 'refund', arguments: '{"id":1}' }], served: { model: 'm-2026', fingerprint: 'fp', identity: '/models/m.gguf' } } };
    const back = parseSessionFile(exportSessionFile(sample({ modelCache: [entry], results: [{ ...result('q1'), modelKeys: [entry.key] }] })));
    expect(back.modelCache).toEqual([entry]);
    const forged = { ...entry, response: { ...entry.response, served: { model: 'm', secret: 'x' } } };
    expect(() => parseSessionFile(exportSessionFile(sample({ modelCache: [forged], results: [{ ...result('q1'), modelKeys: [entry.key] }] })))).toThrow(/modelCache\[0\]\.response\.served.*secret/);
  });

  it('round-trips what the endpoint said served a cached answer (every live answer may carry it), and refuses a malformed one', () => {
    const served = { ...ENTRY, response: { ...ENTRY.response, served: { model: 'llama3.1:8b-2024', fingerprint: 'fp_1' } } };
    const s = sample({ modelCache: [served], results: [{ ...result('q1'), modelKeys: [ENTRY.key] }] });
    expect(parseSessionFile(exportSessionFile(s)).modelCache).toEqual([served]);
    const bad = sample({ modelCache: [{ ...ENTRY, response: { ...ENTRY.response, served: { model: 7 } } }], results: [{ ...result('q1'), modelKeys: [ENTRY.key] }] });
    expect(() => parseSessionFile(exportSessionFile(bad as never))).toThrow(/modelCache\[0\]\.response\.served\.model/);
  });

  it('drops model cache entries that no result of the file names', () => {
    const back = parseSessionFile(exportSessionFile(sample({ modelCache: [ENTRY] })));
    expect(back.modelCache).toBeUndefined();
  });

  it('refuses a model cache entry that answers another request, naming its path', () => {
    const s = sample({ modelCache: [{ ...ENTRY, request: { ...REQUEST, max_tokens: 6 } }] });
    expect(() => parseSessionFile(exportSessionFile(s))).toThrow(/modelCache\[0\]\.key.*does not match its request/);
  });

  it('refuses a shard index outside 1..count, naming its path', () => {
    const s = sample({ study: { fingerprint: 'a'.repeat(64), shard: { index: 4, count: 3 } } });
    expect(() => parseSessionFile(exportSessionFile(s))).toThrow(/study\.shard\.index/);
  });
});

describe('studyFingerprint', () => {
  it('is the same for a study and its copy read back from the file (Infinity, undefined fields)', () => {
    const s = sample({ pipeline: { name: 'p', source: 'x' } });
    const back = parseSessionFile(exportSessionFile(s));
    expect(studyFingerprint(back)).toBe(studyFingerprint(s));
    expect(studyFingerprint({ ...s, settings: { ...s.settings, seed: s.settings.seed + 1 } })).not.toBe(studyFingerprint(s));
  });
});
