import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../engine/model-call.ts';
import { commandModelHost } from './command-host.node.ts';
import { startFakeEndpoint, type FakeEndpoint } from './testing/fake-endpoint.ts';

const endpoints: FakeEndpoint[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const request: ChatRequest = { model: 'fake-model', messages: [{ role: 'user', content: 'hi' }], temperature: 0 };
const pending = { key: requestKey(request), request, step: 'draft', caseId: 'c0' };
const flags = { concurrency: 4, caches: [] as string[], offline: false };

describe('commandModelHost', () => {
  it('is null when no flag asks for a model', () => {
    expect(commandModelHost(flags, undefined, {})).toBeNull();
    expect(() => commandModelHost({ ...flags, apiKeyEnv: 'KEY' }, undefined, { KEY: 'x' })).toThrow('--api-key-env: there is no --model-url to send the key to');
  });

  it('reads the key from the named variable, sends it, and writes responses to the first --cache', async () => {
    const endpoint = await startFakeEndpoint({ apiKey: 'sk-env-key-42' });
    endpoints.push(endpoint);
    const dir = mkdtempSync(join(tmpdir(), 'agentblame-cmd-'));
    dirs.push(dir);
    const file = join(dir, 'r.jsonl');
    const made = commandModelHost({ ...flags, url: endpoint.url, apiKeyEnv: 'MY_KEY', caches: [file] }, { default: 'fake-model' }, { MY_KEY: 'sk-env-key-42' })!;
    const answers = await made.host.resolve([pending]);
    expect(answers.get(pending.key)).toMatchObject({ text: expect.any(String) });
    expect(endpoint.authorizations).toEqual(['Bearer sk-env-key-42']);
    expect(readFileSync(file, 'utf8')).not.toContain('sk-env-key-42');
    expect(made.warnings).toEqual([]);
  });

  it('refuses an unset key variable without naming any value', () => {
    expect(() => commandModelHost({ ...flags, url: 'http://127.0.0.1:9/v1', apiKeyEnv: 'NOPE' }, undefined, {})).toThrow('--api-key-env: the environment variable NOPE is not set (or empty)');
  });

  it('with caches but no URL (or --offline) sends nothing: a miss is a failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentblame-cmd-'));
    dirs.push(dir);
    const file = join(dir, 'empty.jsonl');
    writeFileSync(file, '');
    const which = `(model "fake-model", key ${pending.key.slice(0, 12)})`;
    const cachesOnly = commandModelHost({ ...flags, caches: [file] }, undefined, {})!.host;
    expect((await cachesOnly.resolve([pending])).get(pending.key)).toEqual({ error: `no cached response for this request ${which}, and no model endpoint is set up to ask (the command: --model-url URL; the page: Settings > Model)` });
    const offline = commandModelHost({ ...flags, offline: true }, undefined, {})!.host;
    expect((await offline.resolve([pending])).get(pending.key)).toEqual({ error: `offline: no cached response for this request ${which}` });
    expect(readFileSync(file, 'utf8')).toBe('');
    // A cache that is only read must exist: a missing one is a mistyped path, not an empty cache.
    const missing = join(dir, 'none.jsonl');
    expect(() => commandModelHost({ ...flags, caches: [missing] }, undefined, {})).toThrow(`--cache ${missing}: no such file (without --model-url or --model-file nothing is written, so it must exist)`);
    expect(existsSync(missing)).toBe(false);
  });
});
