/**
 * Model steps opened with no endpoint, through the AnalysisRunner and the fake pool (whose `model*`
 * cases each ask one request): the cases a carried response answers are analysed, the others wait
 * (no error result) until an endpoint is set, and then run against it.
 */
import { testRunner } from '../testing/model-host.ts';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestKey } from '../../engine/model-call.ts';
import type { Study } from '../importing/study.ts';
import { Navigation } from '../navigation/navigation.svelte.ts';
import { FakePool } from '../testing/fake-pool.ts';
import { startFakeEndpoint } from '../../model/testing/fake-endpoint.ts';

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
  it('analyses the cases the carried responses answer; the others wait, without an error, until an endpoint is set', async () => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    const endpoint = await startFakeEndpoint({ models: ['fake-model'] });
    try {
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
    } finally {
      await endpoint.close();
    }
  });

  it('waits for nothing with an endpoint set: a refused request is the case\'s error', async () => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    const endpoint = await startFakeEndpoint({ models: ['fake-model'] });
    try {
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
    } finally {
      await endpoint.close();
    }
  });

  it('tests a saved base URL before using it: one that does not answer makes its cases wait, not fail, until a tested endpoint answers', async () => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    // A well-formed URL nothing listens at: an endpoint started and closed again.
    const gone = await startFakeEndpoint({ models: ['fake-model'] });
    const deadUrl = gone.url;
    await gone.close();
    const endpoint = await startFakeEndpoint({ models: ['fake-model'] });
    try {
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
    } finally {
      await endpoint.close();
    }
  });

  it('still charges the case when a saved endpoint passes its connection test but refuses the request', async () => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    const endpoint = await startFakeEndpoint({ models: ['fake-model'] });
    try {
      endpoint.setFault({ kind: 'status', status: 400, message: 'model not found' });
      const { runner, pool } = runnerWithFakePool();
      pool.summaryExtra = { usesModel: true };
      runner.model.connection.baseUrl = endpoint.url;
      await runner.openStudy(study(['model1']));
      expect(runner.model.connection.test.status).toBe('ok');
      expect(runner.results[0]?.error).toMatch(/model not found/);
      expect(runner.endpointWait.waiting).toBeNull();
    } finally {
      await endpoint.close();
    }
  });

  it('forgets what waited when another study opens', async () => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    const { runner } = runnerWithFakePool();
    runner.model.connection.baseUrl = '';
    await runner.openStudy(study(['model1']));
    expect(runner.endpointWait.waiting).toEqual({ cases: 1, requests: 1 });
    await runner.openStudy(study(['plain']));
    expect(runner.endpointWait.waiting).toBeNull();
  });
});
