/**
 * The page's one model host: every job opens over the Model panel's settings as they are then (a
 * URL typed since is used), with its request time limit, its ask-before guard and this browser's
 * response store; a second kind of model plugs in through `use` with the same guard and cache.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { isModelFailure } from '../../engine/model-call.ts';
import { endpointConfig } from '../../model/index.ts';
import type { InPageModel } from './in-page/in-page-model.svelte.ts';
import { useFakeEndpoints } from '../../model/testing/use-fake-endpoints.ts';
import { fakeLocalModel } from '../../model/testing/fake-local-model.ts';
import { settle } from '../testing/settle.ts';
import { askOf, useFreshResponseStore } from '../testing/model-host.ts';
import { ModelConnection } from './model-connection.svelte.ts';
import { EndpointSource, PageModelHost, type ModelSource } from './page-model-host.svelte.ts';
import { ResponseStore } from './response-store.ts';

const ask = (text: string) => askOf(text);

function pageHost(): PageModelHost {
  return new PageModelHost(new ModelConnection(null), new ResponseStore());
}

describe('PageModelHost', () => {
  const fake = useFakeEndpoints();
  useFreshResponseStore();

  it('opens each job over the endpoint as it is then: a URL typed since the last job is the one used', async () => {
    const [first, second] = [await fake(), await fake()];
    const host = pageHost();
    host.connection.baseUrl = first.url;
    const one = host.open();
    await one.resolve([ask('a')]);
    host.connection.baseUrl = second.url;
    // The job already open keeps its endpoint; the next one sends to the new URL.
    await one.resolve([ask('b')]);
    const two = host.open();
    await two.resolve([ask('c')]);
    expect(first.requests.map((r) => r.messages[0].content)).toEqual(['a', 'b']);
    expect(second.requests.map((r) => r.messages[0].content)).toEqual(['c']);
    two.finish();
    expect(two.activity).toMatchObject({ done: 1, endpoint: second.url, usage: { requests: 1 } });
  });

  it('holds a job\'s requests above the Model panel\'s threshold until released; guard: false sends at once', async () => {
    const endpoint = await fake();
    const host = pageHost();
    host.connection.baseUrl = endpoint.url;
    host.connection.askAbove = 1;
    const job = host.open();
    const answers = job.resolve([ask('a'), ask('b'), ask('c')]);
    await settle(() => job.activity?.held === true && endpoint.requests.length === 1, 'the requests after the first held');
    expect(job.activity).toMatchObject({ held: true, queued: 2 });
    job.release();
    expect((await answers).size).toBe(3);
    expect(endpoint.requests).toHaveLength(3);
    const unguarded = host.open({ guard: false });
    expect((await unguarded.resolve([ask('d'), ask('e')])).size).toBe(2);
    expect(unguarded.activity?.held ?? false).toBe(false);
  });

  it('answers from this browser\'s store before sending: a later job sends nothing the store has', async () => {
    const endpoint = await fake();
    const host = pageHost();
    host.connection.baseUrl = endpoint.url;
    await host.open().resolve([ask('a')]);
    await settle(async () => (await host.store.count()) === 1, 'the response stored');
    const again = host.open();
    await again.resolve([ask('a')]);
    again.finish();
    expect(endpoint.requests).toHaveLength(1);
    expect(again.activity).toMatchObject({ usage: { requests: 0, cacheHits: 1 } });
  });

  it('gives each request the Model panel\'s time limit and concurrency, and no endpoint for an unusable URL', () => {
    const connection = new ModelConnection(null);
    const source = new EndpointSource(connection);
    expect(source.connect()).toBeNull();
    connection.baseUrl = 'http://127.0.0.1:8151/v1';
    connection.timeoutSeconds = 240;
    connection.concurrency = 1;
    expect(source.connect()?.endpoint).toMatchObject({ baseUrl: 'http://127.0.0.1:8151/v1', timeoutMs: 240_000, concurrency: 1 });
    const host = new PageModelHost(connection, new ResponseStore());
    connection.baseUrl = '';
    expect(host.open().hasEndpoint).toBe(false);
  });

  it('fails a request no store answers when no endpoint is set, naming where to set one', async () => {
    const host = pageHost();
    const answer = (await host.open().resolve([ask('a')])).get(ask('a').key)!;
    expect(isModelFailure(answer) && answer.error).toMatch(/no model endpoint is set up to ask \(.*the page: Settings > Model\)/);
  });

  it('takes a second kind of model behind the same interface: its fetch answers, with the same guard and store', async () => {
    const endpoint = await fake();
    const host = pageHost();
    host.connection.askAbove = 1;
    // A kind of model reached without the network: here its fetch relays to a loopback server, as
    // an in-page model would answer the same OpenAI-compatible requests itself.
    const asked: string[] = [];
    const inPage: ModelSource = {
      kind: 'in-page',
      connect: () => ({
        endpoint: endpointConfig({ baseUrl: 'http://in-page.invalid/v1', concurrency: 1 }),
        fetch: (url, init) => {
          asked.push(String(url));
          return fetch(String(url).replace('http://in-page.invalid/v1', endpoint.url), init);
        },
      }),
    };
    host.use(inPage);
    expect(host.source.kind).toBe('in-page');
    const job = host.open();
    const answers = job.resolve([ask('a'), ask('b')]);
    await settle(() => job.activity?.held === true, 'the second request held');
    job.release();
    expect([...(await answers).values()].every((a) => !isModelFailure(a))).toBe(true);
    expect(asked.filter((u) => u.endsWith('/chat/completions'))).toHaveLength(2);
    job.finish();
    expect(job.activity).toMatchObject({ endpoint: 'http://in-page.invalid/v1', done: 2, usage: { requests: 2 } });
    await settle(async () => (await host.store.count()) === 2, 'its responses stored');
    // Back to the Model panel's endpoint (none set): the stored answers still answer.
    host.use(null);
    expect(host.source.kind).toBe('endpoint');
    const back = host.open();
    expect((await back.resolve([ask('a')])).size).toBe(1);
    expect(back.hasEndpoint).toBe(false);
    back.finish();
    expect(back.activity).toMatchObject({ usage: { cacheHits: 1 } });
  });
});

describe('the in-page model beside the endpoint', () => {
  const fake = useFakeEndpoints();
  useFreshResponseStore();

  const FILE_ID = `gguf-sha256:${'ab'.repeat(32)}`;
  const fileModel = () => fakeLocalModel(FILE_ID, () => ({ text: 'once upon a time', finish: 'length', usage: { input: 3, output: 4 } }));

  it('answers model file ids in the page and sends every other id to the endpoint; with no endpoint only the others fail', async () => {
    const endpoint = await fake();
    const local = fileModel();
    const host = new PageModelHost(new ModelConnection(null), new ResponseStore(), undefined, local as unknown as InPageModel);
    expect(host.source.kind).toBe('endpoint+in-page');
    const inFile = (text: string) => askOf(text, 'answer', text, FILE_ID);
    host.connection.baseUrl = endpoint.url;
    const both = host.open();
    const answers = await both.resolve([inFile('story'), ask('question')]);
    expect(local.calls.map((r) => r.messages[0].content)).toEqual(['story']);
    expect(endpoint.requests.map((r) => r.messages[0].content)).toEqual(['question']);
    expect([...answers.values()].some(isModelFailure)).toBe(false);

    host.connection.baseUrl = '';
    const alone = host.open();
    expect(alone.hasEndpoint).toBe(false);
    const without = await alone.resolve([inFile('another story'), ask('another question')]);
    expect(without.get(inFile('another story').key)).toMatchObject({ text: 'once upon a time' });
    expect(isModelFailure(without.get(ask('another question').key)!)).toBe(true);
  });
});
