import { describe, expect, it } from 'vitest';
import { chatCompletionsUrl, endpointConfig, modelsUrl, normaliseBaseUrl } from './endpoint.ts';

describe('endpointConfig', () => {
  it('fills the defaults', () => {
    expect(endpointConfig({ baseUrl: 'http://127.0.0.1:11434/v1/' })).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', models: {}, concurrency: 4, timeoutMs: 60_000, maxRetries: 5, maxResponseBytes: 8 * 1024 * 1024 });
  });

  it('keeps the path as given, without trailing slashes, and builds the request URLs from it', () => {
    expect(normaliseBaseUrl(' https://api.example.com/openai/v1// ')).toBe('https://api.example.com/openai/v1');
    expect(normaliseBaseUrl('http://localhost:8080')).toBe('http://localhost:8080');
    const config = endpointConfig({ baseUrl: 'http://localhost:8080/v1' });
    expect(chatCompletionsUrl(config)).toBe('http://localhost:8080/v1/chat/completions');
    expect(modelsUrl(config)).toBe('http://localhost:8080/v1/models');
  });

  it('refuses bad URLs with a clear message', () => {
    expect(() => normaliseBaseUrl('localhost:11434')).toThrow('baseUrl: expected an http or https URL, got "localhost:" in "localhost:11434"');
    expect(() => normaliseBaseUrl('not a url')).toThrow('baseUrl: "not a url" is not a URL; expected e.g. http://127.0.0.1:11434/v1');
    expect(() => normaliseBaseUrl('ftp://host/v1')).toThrow('expected an http or https URL');
    expect(() => normaliseBaseUrl('http://user:pw@host/v1')).toThrow('must not hold a user name or password');
    expect(() => normaliseBaseUrl('http://host/v1?x=1')).toThrow('must not have a query or fragment');
  });

  it('checks aliases and model ids', () => {
    expect(endpointConfig({ baseUrl: 'http://h', models: { default: 'qwen2.5:0.5b', judge: 'Qwen/Qwen2.5-7B' } }).models).toEqual({ default: 'qwen2.5:0.5b', judge: 'Qwen/Qwen2.5-7B' });
    expect(() => endpointConfig({ baseUrl: 'http://h', models: { 'bad alias': 'x' } })).toThrow('models: alias "bad alias" must be 1 to 64 letters');
    expect(() => endpointConfig({ baseUrl: 'http://h', models: { default: '' } })).toThrow('models.default: expected a model id');
    expect(() => endpointConfig({ baseUrl: 'http://h', models: { default: ' x' } })).toThrow('models.default: expected a model id');
  });

  it('keeps an alias named __proto__ as an own entry (not as the prototype)', () => {
    const models = JSON.parse('{"__proto__":"m1","constructor":"m2"}') as Record<string, string>;
    const config = endpointConfig({ baseUrl: 'http://h', models });
    expect(Object.hasOwn(config.models, '__proto__')).toBe(true);
    expect(Object.entries(config.models)).toEqual([['__proto__', 'm1'], ['constructor', 'm2']]);
  });

  it('needs a positive whole concurrency and timeout, and a whole number of retries', () => {
    expect(() => endpointConfig({ baseUrl: 'http://h', concurrency: 0 })).toThrow('concurrency: expected a positive whole number, got 0');
    expect(() => endpointConfig({ baseUrl: 'http://h', concurrency: 2.5 })).toThrow('concurrency: expected a positive whole number, got 2.5');
    expect(() => endpointConfig({ baseUrl: 'http://h', timeoutMs: -1 })).toThrow('timeoutMs');
    expect(() => endpointConfig({ baseUrl: 'http://h', maxRetries: -1 })).toThrow('maxRetries: expected a whole number (0 or more), got -1');
    expect(endpointConfig({ baseUrl: 'http://h', maxRetries: 0 }).maxRetries).toBe(0);
  });

  it('keeps the key but never echoes a bad one', () => {
    expect(endpointConfig({ baseUrl: 'http://h', apiKey: 'sk-1' }).apiKey).toBe('sk-1');
    expect('apiKey' in endpointConfig({ baseUrl: 'http://h', apiKey: '' })).toBe(false);
    let message = '';
    try {
      endpointConfig({ baseUrl: 'http://h', apiKey: 'sk bad key' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('apiKey: must be one line of printable characters without spaces');
  });
});
