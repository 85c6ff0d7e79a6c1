/**
 * ModelConnection beyond what model-aliases.test.ts covers: what it refuses to remember, the base
 * URL's problems, other model-list shapes, and an endpoint that never answers (fake timers, so
 * the 10 s limit is not waited out).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ASK_ABOVE, ModelConnection } from './model-connection.svelte.ts';

function memory(saved?: unknown) {
  const data = new Map<string, string>();
  if (saved !== undefined) data.set('agentblame.model-connection', typeof saved === 'string' ? saved : JSON.stringify(saved));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

afterEach(() => vi.useRealTimers());

describe('ModelConnection', () => {
  it('starts empty without storage, or from a corrupt or out-of-range entry', () => {
    for (const storage of [null, memory('{not json'), memory({ baseUrl: 7, concurrency: 65, askAbove: -1 }), memory({ concurrency: 2.5, askAbove: 1.5 })]) {
      const c = new ModelConnection(storage);
      expect([c.baseUrl, c.concurrency, c.askAbove, c.apiKey]).toEqual(['', 4, DEFAULT_ASK_ABOVE, '']);
    }
    const edge = new ModelConnection(memory({ baseUrl: 'http://x/v1', concurrency: 64, askAbove: 0 }));
    expect([edge.baseUrl, edge.concurrency, edge.askAbove]).toEqual(['http://x/v1', 64, 0]);
  });

  it('keeps its settings for the page when storage refuses them', () => {
    const c = new ModelConnection({
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    });
    c.baseUrl = 'http://127.0.0.1:11434/v1';
    expect(() => c.save()).not.toThrow();
    expect(c.baseUrl).toBe('http://127.0.0.1:11434/v1');
  });

  it('says what is wrong with the base URL, trimmed', () => {
    const c = new ModelConnection(null);
    expect(c.urlProblem).toMatch(/^Set the base URL of an OpenAI-compatible endpoint/);
    c.baseUrl = '   ';
    expect(c.urlProblem).toMatch(/^Set the base URL/);
    c.baseUrl = 'localhost:11434';
    expect(c.urlProblem).toBe('"localhost:11434" is not an http(s) URL.');
    c.baseUrl = ' https://api.example.com/v1 ';
    expect(c.urlProblem).toBeNull();
  });

  it('names a port the browser blocks before any request is made', async () => {
    const c = new ModelConnection(null);
    c.baseUrl = 'http://127.0.0.1:9/v1';
    expect(c.urlProblem).toBe('Port 9 is blocked by the browser: use another port (the server\'s --port).');
    let asked = 0;
    await c.testConnection((async () => {
      asked++;
      return new Response('{"data":[]}');
    }) as typeof fetch);
    expect(asked).toBe(0);
    expect(c.test).toMatchObject({ status: 'error', message: c.urlProblem });
    c.baseUrl = 'http://127.0.0.1:8080/v1';
    expect(c.urlProblem).toBeNull();
  });

  it('reads Ollama\'s model list, and says when the answer is no model list', async () => {
    const c = new ModelConnection(null);
    c.baseUrl = 'http://127.0.0.1:11434';
    const asked: string[] = [];
    await c.testConnection((async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify({ models: [{ name: 'llama3' }, { model: 'qwen' }, { name: 3 }] }));
    }) as typeof fetch);
    expect(asked).toEqual(['http://127.0.0.1:11434/models']);
    expect(c.test).toEqual({ status: 'ok', message: 'Connected: 2 models at http://127.0.0.1:11434.', models: ['llama3', 'qwen'] });
    await c.testConnection((async () => new Response('<html>hello</html>')) as typeof fetch);
    expect(c.test).toEqual({ status: 'error', message: 'http://127.0.0.1:11434/models answered, but not with an OpenAI-style model list.', models: [] });
    await c.testConnection((async () => new Response(JSON.stringify({ data: [{ id: 'one' }] }))) as typeof fetch);
    expect(c.test.message).toBe('Connected: 1 model at http://127.0.0.1:11434.');
  });

  it('uses an endpoint whose model list answers 404 (many proxies): its chat requests decide', async () => {
    const c = new ModelConnection(null);
    c.baseUrl = 'http://127.0.0.1:8150/v1';
    await c.testConnection((async () => new Response(JSON.stringify({ error: { message: 'Not Found', type: 'invalid_request_error' } }), { status: 404 })) as typeof fetch);
    expect(c.test).toEqual({ status: 'ok', message: 'Connected to http://127.0.0.1:8150/v1: it lists no models (http://127.0.0.1:8150/v1/models answered HTTP 404), so the chat requests will tell whether it serves the model.', models: [] });
    expect(c.answers).toBe(true);
    await c.testConnection((async () => new Response(JSON.stringify({ error: { message: 'Invalid API key' } }), { status: 401 })) as typeof fetch);
    expect(c.test).toMatchObject({ status: 'error', message: 'http://127.0.0.1:8150/v1/models answered HTTP 401: "Invalid API key"' });
  });

  it('shows the test running, and gives up on an endpoint silent for 10 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const c = new ModelConnection(null);
    c.baseUrl = 'http://10.255.255.1/v1';
    const silent = ((_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))) as typeof fetch;
    const testing = c.testConnection(silent);
    expect(c.test).toEqual({ status: 'testing', message: 'Asking http://10.255.255.1/v1/models…', models: [] });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(c.test.status).toBe('testing');
    await vi.advanceTimersByTimeAsync(1);
    await testing;
    expect(c.test.status).toBe('error');
    expect(c.test.message).toMatch(/^Cannot reach http:\/\/10\.255\.255\.1\/v1: no answer within 10 s\./);
  });

  it('says whether the base URL as it is now answered its test, and asks once for a test already running', async () => {
    const c = new ModelConnection(null);
    c.baseUrl = 'http://127.0.0.1:5999/v1';
    expect(c.answers).toBeNull();
    let calls = 0;
    let answer: (r: Response) => void = () => {};
    const pending = (async () => {
      calls++;
      return new Promise<Response>((resolve) => (answer = resolve));
    }) as typeof fetch;
    const first = c.testConnection(pending);
    const second = c.testConnection(pending);
    expect(c.answers).toBeNull();
    answer(new Response('{"error":"down"}', { status: 502 }));
    await Promise.all([first, second]);
    expect(calls).toBe(1);
    expect(c.answers).toBe(false);
    // A test says nothing of a URL typed since; one that cannot be used never answers.
    c.baseUrl = 'http://127.0.0.1:11434/v1';
    expect(c.answers).toBeNull();
    await c.testConnection((async () => new Response(JSON.stringify({ data: [{ id: 'one' }] }))) as typeof fetch);
    expect(c.answers).toBe(true);
    c.baseUrl = 'ftp://x';
    expect(c.answers).toBe(false);

    // A test of a URL typed over while it ran, ending last, does not speak for the URL now typed.
    c.baseUrl = 'http://127.0.0.1:5999/v1';
    const stale = c.testConnection(pending);
    c.baseUrl = 'http://127.0.0.1:11434/v1';
    await c.testConnection((async () => new Response(JSON.stringify({ data: [{ id: 'one' }] }))) as typeof fetch);
    answer(new Response('{"error":"down"}', { status: 502 }));
    await stale;
    expect([c.answers, c.testedUrl, c.test.message]).toEqual([true, 'http://127.0.0.1:11434/v1', 'Connected: 1 model at http://127.0.0.1:11434/v1.']);
  });
});
