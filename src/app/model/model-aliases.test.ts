import { describe, expect, it } from 'vitest';
import { formatAliases, parseAliases } from './model-aliases.ts';
import { ModelConnection, redact } from './model-connection.svelte.ts';

describe('model aliases', () => {
  it('read alias=id lines and say which line is wrong', () => {
    expect(parseAliases('big=llama3.1:8b\n\n small = qwen2.5:0.5b ')).toEqual({ big: 'llama3.1:8b', small: 'qwen2.5:0.5b' });
    expect(parseAliases('big')).toBe('Line 1: expected alias=model-id, got "big".');
    expect(parseAliases('a=x\na=y')).toBe('Line 2: alias "a" is given twice.');
    expect(parseAliases('default=x')).toMatch(/Model id/);
    expect(parseAliases('constructor=x')).toEqual(Object.defineProperty({}, 'constructor', { value: 'x', enumerable: true, writable: true, configurable: true }));
    expect(formatAliases({ big: 'a', small: 'b' })).toBe('big=a\nsmall=b');
  });
});

describe('model connection', () => {
  const memory = () => {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
  };

  it('remembers the base URL, concurrency and ask threshold, never the key', () => {
    const storage = memory();
    const a = new ModelConnection(storage);
    expect(a.askAbove).toBe(200);
    a.baseUrl = 'http://127.0.0.1:11434/v1';
    a.concurrency = 8;
    a.askAbove = 0;
    a.apiKey = 'sk-secret-key';
    a.save();
    expect([...storage.data.values()].join()).not.toContain('sk-secret-key');
    const b = new ModelConnection(storage);
    expect([b.baseUrl, b.concurrency, b.askAbove, b.apiKey]).toEqual(['http://127.0.0.1:11434/v1', 8, 0, '']);
  });

  it('lists the endpoint\'s models, or quotes its error without the key', async () => {
    const c = new ModelConnection(memory());
    c.baseUrl = 'http://127.0.0.1:8080/v1/';
    c.apiKey = 'sk-secret-key';
    await c.testConnection((async () => new Response(JSON.stringify({ data: [{ id: 'm1' }, { id: 'm2' }] }))) as typeof fetch);
    expect(c.test).toEqual({ status: 'ok', message: 'Connected: 2 models at http://127.0.0.1:8080/v1.', models: ['m1', 'm2'] });
    await c.testConnection((async () => new Response(JSON.stringify({ error: { message: 'bad key sk-secret-key' } }), { status: 401 })) as typeof fetch);
    expect(c.test.message).toBe('http://127.0.0.1:8080/v1/models answered HTTP 401: "bad key [API key]"');
    await c.testConnection((async () => { throw new TypeError('fetch failed'); }) as typeof fetch);
    expect(c.test.status).toBe('error');
    expect(c.test.message).toMatch(/^Cannot reach http:\/\/127.0.0.1:8080\/v1: fetch failed/);
    c.baseUrl = 'ftp://x';
    await c.testConnection();
    expect(c.test.message).toBe('"ftp://x" is not an http(s) URL.');
    expect(redact('a sk-secret-key b', 'sk-secret-key')).toBe('a [API key] b');
  });

  it('hints at the base URL when a pasted URL ends in /chat/completions, and keeps the time per request', () => {
    const storage = memory();
    const c = new ModelConnection(storage);
    c.baseUrl = 'http://127.0.0.1:8080/v1/chat/completions';
    expect(c.urlProblem).toBe('Give the base URL without "/chat/completions" (requests go to base URL/chat/completions): http://127.0.0.1:8080/v1');
    c.baseUrl = 'http://127.0.0.1:8080/v1';
    expect(c.urlProblem).toBeNull();
    c.timeoutSeconds = 300;
    c.save();
    expect(new ModelConnection(storage).timeoutSeconds).toBe(300);
  });

  it('masks a key the endpoint echoes before its message is cut', async () => {
    const key = 'sk-live-abcdefghijklmnopqrstuvwxyz0123456789';
    const c = new ModelConnection(memory());
    c.baseUrl = 'http://127.0.0.1:9/v1';
    c.apiKey = key;
    for (const pad of [170, 180, 190]) {
      await c.testConnection(async () => new Response(JSON.stringify({ error: { message: `${'x'.repeat(pad)} bad key ${key}` } }), { status: 401 }));
      expect(c.test.message).not.toContain(key.slice(0, 8));
    }
  });
});
