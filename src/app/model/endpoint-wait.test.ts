/**
 * Model steps opened with no endpoint, through the AnalysisRunner and the fake pool (whose `model*`
 * cases each ask one request): the cases a carried response answers are analysed, the others wait
 * (no error result) until an endpoint is set, and then run against it.
 */
import { testRunner } from '../testing/model-host.ts';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestKey } from '../../engine/model-call.ts';
import type { Study } from '../importing/study.ts';
import { Navigation } from '../navigation/navigation.svelte.ts';
import { FakePool } from '../testing/fake-pool.ts';
import { useFakeEndpoints } from '../../model/testing/use-fake-endpoints.ts';
import { EndpointWait } from './endpoint-wait.svelte.ts';
import type { CaseResult } from '../../engine/types.ts';

/** The request the fake pool's case `id` asks (see fake-pool.ts). */
function fakeRequest(id: string) {
  return { model: 'fake-model', messages: [{ role: 'user' as const, content: `case ${id}` }] };
}

function study(ids: string[], carried: string[] = []): Study {
  return {
    fileName: 'triage.trace.json',
    name: 'triage',
    pipeline: { name: 'triage', source: 'export default {}\n// steps: classify, draft' },
    cases: ids.map((id) => ({ id, inputs: { question: id } })),
    games: [],
    modelResponses: carried.map((id) => ({ key: requestKey(fakeRequest(id)), request: fakeRequest(id), response: { text: 'refund', finish: 'stop', usage: { input: 3, output: 1 } } })),
  };
}

function runnerWithFakePool() {
  const pool = new FakePool();
  const runner = testRunner(1, { autosave: { schedule: () => {} }, navigation: new Navigation(), createPool: () => pool });
  return { runner, pool };
}

afterEach(() => vi.unstubAllGlobals());

describe('EndpointWait', () => {
  const fake = useFakeEndpoints();
  // Each test its own response store.
  beforeEach(() => {
    vi.stubGlobal('indexedDB', new IDBFactory());
  });

  it('analyses the cases the carried responses answer; the others wait, without an error, until an endpoint is set', async () => {
    const endpoint = await fake({ models: ['fake-model'] });
    const { runner } = runnerWithFakePool();
    runner.model.connection.baseUrl = '';
    await runner.openStudy(study(['model1', 'model2', 'plain', 'model3'], ['model1']));
    expect(runner.results.map((r) => (r === undefined ? 'waiting' : (r.error ?? 'ok')))).toEqual(['ok', 'waiting', 'ok', 'waiting']);
    expect(runner.endpointWait.waiting).toEqual({ cases: 2, requests: 2 });
    expect(runner.modelActivity).toMatchObject({ cacheHits: 1, done: 0, failed: 0 });

    // Another setting re-runs them: still no endpoint, still waiting, never an error.
    runner.updateSettings({ seed: 7 });
    await vi.waitFor(() => expect(runner.progress?.status).toBe('done'));
    await vi.waitFor(() => expect(runner.endpointWait.waiting).toEqual({ cases: 2, requests: 2 }));
    expect(runner.results.filter((r) => r?.error !== undefined)).toEqual([]);

    runner.model.connection.baseUrl = endpoint.url;
    runner.endpointWait.resume();
    // Real HTTP to the fake endpoint: vi.waitFor's 1 s default ran out on a loaded machine.
    await vi.waitFor(() => expect(runner.results.every((r) => r !== undefined && r.error === undefined)).toBe(true), { timeout: 15_000 });
    expect(runner.endpointWait.waiting).toBeNull();
    expect(endpoint.requests.map((r) => r.messages[0].content).sort()).toEqual(['case model2', 'case model3']);
    expect(runner.progress).toMatchObject({ status: 'done', done: 4, total: 4 });
  });

  it('waits for nothing with an endpoint set: a refused request is the case\'s error', async () => {
    const endpoint = await fake({ models: ['fake-model'] });
    endpoint.setFault({ kind: 'status', status: 400, message: 'model not found' });
    const { runner } = runnerWithFakePool();
    runner.model.connection.baseUrl = endpoint.url;
    await runner.openStudy(study(['model1']));
    expect(runner.results[0]?.error).toMatch(/model not found/);
    expect(runner.endpointWait.waiting).toBeNull();
    // Resuming with nothing waiting runs nothing again.
    runner.endpointWait.resume();
    expect(runner.running).toBe(false);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('tests a saved base URL before using it: one that does not answer makes its cases wait, not fail, until a tested endpoint answers', async () => {
    // A well-formed URL nothing listens at: an endpoint started and closed again.
    const gone = await fake({ models: ['fake-model'] });
    const deadUrl = gone.url;
    await gone.close();
    const endpoint = await fake({ models: ['fake-model'] });
    const { runner, pool } = runnerWithFakePool();
    pool.summaryExtra = { usesModel: true };
    // As after a reload: the URL comes from storage, never tested in this page's life.
    runner.model.connection.baseUrl = deadUrl;
    expect(runner.model.connection.answers).toBeNull();
    await runner.openStudy(study(['model1', 'plain', 'model2'], ['model2']));
    expect(runner.model.connection.test.status).toBe('error');
    expect(runner.model.connection.answers).toBe(false);
    expect(runner.results.map((r) => (r === undefined ? 'waiting' : (r.error ?? 'ok')))).toEqual(['waiting', 'ok', 'ok']);
    expect(runner.endpointWait.waiting).toEqual({ cases: 1, requests: 1 });

    // Another setting re-runs the waiting case: the URL that failed its test is still not used.
    runner.updateSettings({ seed: 7 });
    await vi.waitFor(() => expect(runner.progress?.status).toBe('done'));
    await vi.waitFor(() => expect(runner.endpointWait.waiting).toEqual({ cases: 1, requests: 1 }));
    expect(runner.results.filter((r) => r?.error !== undefined)).toEqual([]);

    // The Model panel's way out: a base URL whose connection test passes, then resume.
    runner.model.connection.baseUrl = endpoint.url;
    await runner.model.connection.testConnection();
    expect(runner.model.connection.answers).toBe(true);
    runner.endpointWait.resume();
    await vi.waitFor(() => expect(runner.results.every((r) => r !== undefined && r.error === undefined)).toBe(true), { timeout: 15_000 });
    expect(runner.endpointWait.waiting).toBeNull();
    expect(endpoint.requests.map((r) => r.messages[0].content)).toEqual(['case model1']);
  });

  it('still charges the case when a saved endpoint passes its connection test but refuses the request', async () => {
    const endpoint = await fake({ models: ['fake-model'] });
    endpoint.setFault({ kind: 'status', status: 400, message: 'model not found' });
    const { runner, pool } = runnerWithFakePool();
    pool.summaryExtra = { usesModel: true };
    runner.model.connection.baseUrl = endpoint.url;
    await runner.openStudy(study(['model1']));
    expect(runner.model.connection.test.status).toBe('ok');
    expect(runner.results[0]?.error).toMatch(/model not found/);
    expect(runner.endpointWait.waiting).toBeNull();
  });

  it('forgets what waited when another study opens', async () => {
    const { runner } = runnerWithFakePool();
    runner.model.connection.baseUrl = '';
    await runner.openStudy(study(['model1']));
    expect(runner.endpointWait.waiting).toEqual({ cases: 1, requests: 1 });
    await runner.openStudy(study(['plain']));
    expect(runner.endpointWait.waiting).toBeNull();
  });
});

describe('EndpointWait and the in-page model', () => {
  it("never holds a case whose failed request was a model file's: the in-page model failed, nothing will come from an endpoint", async () => {
    const wait = new EndpointWait(() => {});
    const file = { model: `gguf-sha256:${'cd'.repeat(32)}`, messages: [{ role: 'user' as const, content: 'story' }] };
    const plain = fakeRequest('p');
    const host = {
      hasEndpoint: false,
      resolve: async () => new Map([[requestKey(file), { error: 'the in-page model tiny.gguf failed: it did not load' }], [requestKey(plain), { error: 'no cached response' }]]),
      usage: () => ({ requests: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 }),
    };
    const resolver = wait.resolver(host);
    await resolver.resolve([{ key: requestKey(file), request: file, step: 's', caseId: 'file-case' }, { key: requestKey(plain), request: plain, step: 's', caseId: 'plain-case' }]);
    const failed = (id: string) => ({ id, error: 'x' }) as unknown as CaseResult;
    expect(wait.holds(failed('file-case'))).toBe(false);
    expect(wait.holds(failed('plain-case'))).toBe(true);
  });
});
