import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIAGE_SOURCE } from '../sandbox/testing/triage-source.ts';
import { startFakeEndpoint, type FakeEndpoint } from '../model/testing/fake-endpoint.ts';

const ROOT = join(import.meta.dirname, '../..');
const KEY = 'sk-cli-test-5f4dcc3b5aa765d61d83';

/** Run the command asynchronously: the fake endpoint answers from this same process. */
function blame(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'src/cli/blame.mjs'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

let endpoint: FakeEndpoint;
let dir: string;
let pipeline: string;
beforeAll(async () => {
  endpoint = await startFakeEndpoint({ models: ['toy-1'], apiKey: KEY });
  dir = mkdtempSync(join(tmpdir(), 'agentblame-model-cli-'));
  pipeline = join(dir, 'triage.js');
  writeFileSync(pipeline, TRIAGE_SOURCE);
});
afterAll(async () => {
  await endpoint.close();
  rmSync(dir, { recursive: true, force: true });
});

const distinct = (from: number) => new Set(endpoint.requests.slice(from).map((r) => JSON.stringify(r))).size;

describe('blame with model steps against the loopback endpoint', () => {
  const flags = () => ['--model-url', endpoint.url, '--model', 'toy-1', '--api-key-env', 'TEST_MODEL_KEY', '--json'];

  it('sends each distinct request once, and a rerun from the cache sends none with the same results', async () => {
    const cache = join(dir, 'responses.jsonl');
    const before = endpoint.requests.length;
    const first = await blame([pipeline, ...flags(), '--cache', cache], { TEST_MODEL_KEY: KEY });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const sent = endpoint.requests.length - before;
    expect(sent).toBeGreaterThan(0);
    expect(distinct(before)).toBe(sent);
    const out = JSON.parse(first.stdout);
    expect(out.cases.every((c: { error?: string }) => c.error === undefined)).toBe(true);
    expect(out.batch.usage.requests).toBe(sent);
    expect(readFileSync(cache, 'utf8').trimEnd().split('\n')).toHaveLength(sent);

    const again = await blame([pipeline, ...flags(), '--cache', cache], { TEST_MODEL_KEY: KEY });
    expect(again.status).toBe(0);
    expect(endpoint.requests.length - before).toBe(sent);
    const rerun = JSON.parse(again.stdout);
    expect(rerun.cases.map((c: { shapley: unknown }) => c.shapley)).toEqual(out.cases.map((c: { shapley: unknown }) => c.shapley));
    expect(rerun.batch.usage).toMatchObject({ requests: 0, cacheHits: sent });

    // Offline from the same cache: no requests, same values.
    const offline = await blame([pipeline, '--model', 'toy-1', '--cache', cache, '--offline', '--json']);
    expect(offline.status).toBe(0);
    expect(JSON.parse(offline.stdout).cases.map((c: { shapley: unknown }) => c.shapley)).toEqual(out.cases.map((c: { shapley: unknown }) => c.shapley));
    expect(endpoint.requests.length - before).toBe(sent);

    // Kill and resume: a torn last line and lost lines are sent again, nothing else.
    const text = readFileSync(cache, 'utf8');
    const kept = text.split('\n').slice(0, 3).join('\n') + '\n';
    writeFileSync(cache, kept + text.split('\n')[3].slice(0, 40));
    const resumed = await blame([pipeline, ...flags(), '--cache', cache], { TEST_MODEL_KEY: KEY });
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain('skipped 1 torn line at the end');
    expect(endpoint.requests.length - before).toBe(sent + sent - 3);
    expect(readFileSync(cache, 'utf8').trimEnd().split('\n')).toHaveLength(sent);
    for (const output of [first, again, offline, resumed]) expect(output.stdout + output.stderr).not.toContain(KEY);
    expect(readFileSync(cache, 'utf8')).not.toContain(KEY);
  });

  it('makes an offline miss a per-case error naming the step, exit 1', async () => {
    const r = await blame([pipeline, '--model', 'toy-1', '--offline', '--json']);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.cases[0].error).toMatch(/step "classify".*offline: no cached response for this request \(model "toy-1"/);
  });

  it('makes a dead endpoint per-case errors, exit 1, without the key anywhere', async () => {
    const dead = await startFakeEndpoint();
    const url = dead.url;
    await dead.close();
    const r = await blame([pipeline, '--model-url', url, '--model', 'toy-1', '--api-key-env', 'TEST_MODEL_KEY', '--json'], { TEST_MODEL_KEY: KEY });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.cases[0].error).toContain(`model endpoint ${url} could not be reached (connection refused (ECONNREFUSED))`);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  }, 120_000);

  it('refuses a wrong key with the endpoint message, at once, per case', async () => {
    const before = endpoint.requests.length;
    const r = await blame([pipeline, '--model-url', endpoint.url, '--model', 'toy-1', '--api-key-env', 'TEST_MODEL_KEY', '--json'], { TEST_MODEL_KEY: 'sk-wrong-key-000000' });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).cases[0].error).toContain('answered HTTP 401: "Incorrect API key provided."');
    // Remembered for the run: each failing request is sent once, not again for every coalition or round.
    expect(distinct(before)).toBe(endpoint.requests.length - before);
    expect(r.stdout + r.stderr).not.toContain('sk-wrong-key-000000');
  });

  it('says what is wrong with the model flags as bad input (exit 2)', async () => {
    const unset = await blame([pipeline, '--model-url', endpoint.url, '--model', 'toy-1', '--api-key-env', 'NO_SUCH_VARIABLE_XYZ']);
    expect(unset.status).toBe(2);
    expect(unset.stderr).toBe('blame: --api-key-env: the environment variable NO_SUCH_VARIABLE_XYZ is not set (or empty)\n');
    const notCache = join(dir, 'notes.txt');
    writeFileSync(notCache, 'hello\n');
    const bad = await blame([pipeline, '--model', 'toy-1', '--cache', notCache, '--offline']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${notCache} line 1: not a response cache line`);
    expect(statSync(notCache).size).toBe(6);
  });
});
