/**
 * A job's request log: every distinct request as the page's host settled it, filtered by status,
 * turn and text, and exported as JSONL in which the endpoint's key never appears, also when the
 * endpoint's own error message quotes it.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { useFakeEndpoints } from '../../model/testing/use-fake-endpoints.ts';
import { ModelConnection } from './model-connection.svelte.ts';
import { PageModelHost, requestSecondsLeft, type ModelActivity } from './page-model-host.svelte.ts';
import { RequestLog } from './request-log.svelte.ts';
import { ResponseStore } from './response-store.ts';
import { askOf, useFreshResponseStore } from '../testing/model-host.ts';

const KEY = 'sk-test-"secret\\key-0123';

const ask = (text: string, step = 'answer') => askOf(text, step, `case ${text}`);

describe('the request log', () => {
  const fake = useFakeEndpoints();
  useFreshResponseStore();

  it('lists each request of a job (sent, from the cache, failed), filters them, and exports JSONL without the key', async () => {
    const endpoint = await fake({ apiKey: KEY });
    const host = new PageModelHost(new ModelConnection(null), new ResponseStore());
    host.connection.baseUrl = endpoint.url;
    host.connection.apiKey = KEY;
    await host.open().resolve([ask('cached one')]);
    await vi.waitFor(async () => expect(await host.store.count()).toBe(1));

    const job = host.open();
    // The endpoint's error and an answer's text quote the Authorization header it was sent (the connector hides it).
    endpoint.faultWhen((r) => r.messages[0].content === 'broken', { kind: 'echo-key', where: 'error' });
    endpoint.faultWhen((r) => r.messages[0].content === 'fresh', { kind: 'echo-key', where: 'text' });
    await job.resolve([ask('cached one', 'plan'), ask('fresh', 'draft'), ask('broken', 'draft')]);
    job.finish();
    const log = new RequestLog(() => job);
    expect(log.rows.map((r) => [r.record.prompt, r.status, r.turn])).toEqual(
      expect.arrayContaining([
        ['cached one', 'cache', 'plan'],
        ['fresh', 'sent', 'draft'],
        ['broken', 'failed', 'draft'],
      ]),
    );
    expect(log.rows).toHaveLength(3);
    expect(log.counts).toMatchObject({ all: 3, sent: 1, cache: 1, failed: 1 });
    expect(log.rows.find((r) => r.status === 'failed')!.record.error).toMatch(/HTTP 400/);
    expect(log.rows.find((r) => r.status === 'sent')!.record.answer).toContain('[API key]');
    expect(log.rows.find((r) => r.status === 'sent')!.record.latencyMs).toBeGreaterThanOrEqual(0);

    log.status = 'failed';
    expect(log.shown.map((r) => r.record.prompt)).toEqual(['broken']);
    log.status = 'all';
    log.turn = 'plan';
    expect(log.shown.map((r) => r.record.prompt)).toEqual(['cached one']);
    log.turn = '';
    log.text = 'FRESH';
    expect(log.shown.map((r) => r.record.prompt)).toEqual(['fresh']);
    log.text = '';

    const jsonl = log.jsonl();
    const lines = jsonl.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => l.status).sort()).toEqual(['cache', 'failed', 'sent']);
    expect(lines.find((l) => l.status === 'sent')?.answer).toContain('[API key]');
    for (const form of [KEY, JSON.stringify(KEY).slice(1, -1), 'secret']) expect(jsonl).not.toContain(form);
  });

  it('takes the key out of any logged text that quotes it (a prompt a trace recorded with it) before export', () => {
    const record = { key: 'k1', caseId: 'c', step: 'plan', model: 'm', choice: false, source: 'sent' as const, latencyMs: 12, inputTokens: 1, outputTokens: 2, prompt: `use ${KEY} please`, answer: 'ok', atMs: 5 };
    const log = new RequestLog(() => ({ log: [record], logDropped: 0, apiKey: KEY }));
    const jsonl = log.jsonl();
    expect(JSON.parse(jsonl)).toMatchObject({ status: 'sent', turn: 'plan', latencyMs: 12, inputTokens: 1, outputTokens: 2, prompt: 'use [api key] please' });
    for (const form of [KEY, JSON.stringify(KEY).slice(1, -1), 'secret']) expect(jsonl).not.toContain(form);
  });

  it('says how long is left from the pace of the requests settled so far, against the bound', () => {
    const activity = (done: number, cacheHits: number, elapsedMs: number, most?: number): ModelActivity => ({
      queued: 0, inFlight: 0, done, failed: 0, cacheHits, held: false, usage: { requests: done, cacheHits, inputTokens: 0, outputTokens: 0 }, endpoint: null, elapsedMs, ...(most !== undefined && { bound: { most, upper: true } }),
    });
    expect(requestSecondsLeft(activity(0, 0, 1000, 10))).toBeNull();
    expect(requestSecondsLeft(activity(2, 0, 4000, 10))).toBe(16);
    expect(requestSecondsLeft(activity(2, 2, 4000, 10))).toBe(6);
    expect(requestSecondsLeft(activity(2, 2, 4000))).toBeNull();
    expect(requestSecondsLeft(activity(8, 2, 4000, 10))).toBeNull();
  });

  it('a job with a bound shows it before its first request, and keeps it in its final figures', async () => {
    const endpoint = await fake();
    const host = new PageModelHost(new ModelConnection(null), new ResponseStore());
    host.connection.baseUrl = endpoint.url;
    const job = host.open();
    expect(job.activity).toBeNull();
    job.expect({ most: 5, upper: true });
    expect(job.activity).toMatchObject({ done: 0, bound: { most: 5, upper: true } });
    await job.resolve([ask('a')]);
    job.finish();
    expect(job.activity).toMatchObject({ done: 1, bound: { most: 5 } });
    expect(job.log).toHaveLength(1);
  });
});
