/**
 * The command with model steps, against the loopback fake endpoint (the deterministic test model):
 * results equal to the in-process analysis, each distinct request sent once, a rerun from the
 * cache sends nothing, a killed run resumes without repeating what it finished, faults are
 * retried, a dead endpoint gives per-case errors, and the API key never appears anywhere.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeCaseRound, DEFAULT_SETTINGS, requestKey, type ModelAnswer } from '../engine/index.ts';
import { fakeModelAnswer } from '../model/testing/fake-model.ts';
import { startFakeEndpoint, type FakeEndpoint } from '../model/testing/fake-endpoint.ts';
import { compilePipeline } from '../sandbox/compile.ts';
import { TRIAGE_SOURCE } from '../sandbox/testing/triage-source.ts';

const ROOT = join(import.meta.dirname, '../..');
const SOURCE = TRIAGE_SOURCE.replace("name: 'triage',", "name: 'triage', models: { default: 'fake-model' },");

/** The command, run without blocking this process (the fake endpoint lives here). */
function blame(args: string[], options: { env?: NodeJS.ProcessEnv; killAfter?: (stdoutSoFar: string) => boolean; killWhen?: () => boolean } = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'src/cli/blame.mjs'), ...args], { cwd: ROOT, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const poll = options.killWhen ? setInterval(() => options.killWhen!() && child.kill('SIGKILL'), 5) : null;
    child.on('close', (status) => {
      if (poll) clearInterval(poll);
      resolve({ status, stdout, stderr });
    });
  });
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'blame-model-'));
}

function definitionFile(dir: string, source = SOURCE): string {
  const path = join(dir, 'triage.pipeline.js');
  writeFileSync(path, source);
  return path;
}

const endpoints: FakeEndpoint[] = [];
async function endpoint(options: Parameters<typeof startFakeEndpoint>[0] = {}): Promise<FakeEndpoint> {
  const e = await startFakeEndpoint(options);
  endpoints.push(e);
  return e;
}
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});

/** The in-process analysis of every case, every response known: what the command must print. */
function inProcess(settings = DEFAULT_SETTINGS) {
  const def = compilePipeline(SOURCE, 'triage.pipeline.js');
  return def.cases!.map((c) => {
    const answers = new Map<string, ModelAnswer>();
    for (;;) {
      const round = analyzeCaseRound(def, c, settings, answers);
      if (round.kind === 'result') return round.result;
      for (const p of round.requests) answers.set(p.key, fakeModelAnswer(p.request));
    }
  });
}

const distinct = (e: FakeEndpoint) => new Set(e.requests.map((r) => requestKey(r))).size;

describe('blame with model steps', () => {
  it('analyses against the endpoint as in process, sends each distinct request once, and a rerun from the cache sends none', async () => {
    const e = await endpoint();
    const dir = tempDir();
    const cache = join(dir, 'responses.jsonl');
    const file = definitionFile(dir);
    const first = await blame([file, '--model-url', e.url, '--cache', cache, '--json', '--mode', 'posterior', '--worlds', '3']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const out = JSON.parse(first.stdout);
    const expected = inProcess({ ...DEFAULT_SETTINGS, mode: 'posterior', worlds: 3 });
    out.cases.forEach((c: Record<string, unknown>, k: number) => {
      expect(c.shapley).toEqual(expected[k].shapley);
      expect([c.vEmpty, c.vAll]).toEqual([expected[k].vEmpty, expected[k].vAll]);
    });
    expect(e.requests.length).toBe(distinct(e));
    expect(out.batch.usage.requests).toBe(e.requests.length);
    expect(out.batch.usage.cacheHits).toBe(0);
    expect(readFileSync(cache, 'utf8').trim().split('\n')).toHaveLength(e.requests.length);

    const sent = e.requests.length;
    const again = await blame([file, '--model-url', e.url, '--cache', cache, '--json', '--mode', 'posterior', '--worlds', '3']);
    expect(e.requests.length).toBe(sent);
    const second = JSON.parse(again.stdout);
    expect(second.cases.map((c: { shapley: unknown }) => c.shapley)).toEqual(out.cases.map((c: { shapley: unknown }) => c.shapley));
    // Nothing sent, and the tokens shown are what the cached answers cost when they were fetched.
    expect(second.batch.usage).toMatchObject({ requests: 0, inputTokens: out.batch.usage.inputTokens, outputTokens: out.batch.usage.outputTokens });
    expect(second.batch.usage.cacheHits).toBeGreaterThan(0);
    // A saved session carries exactly the responses its results used.
    const saved = join(dir, 'study.session.json');
    await blame([file, '--cache', cache, '--offline', '--json', '--mode', 'posterior', '--worlds', '3', '--save', saved]);
    const session = JSON.parse(readFileSync(saved, 'utf8'));
    const used = new Set(session.results.flatMap((r: { modelKeys?: string[] }) => r.modelKeys ?? []));
    expect(session.modelCache.map((e: { key: string }) => e.key).sort()).toEqual([...used].sort());
    // Offline from the cache alone: the same numbers, still nothing sent.
    const offline = await blame([file, '--cache', cache, '--offline', '--json', '--mode', 'posterior', '--worlds', '3']);
    expect(JSON.parse(offline.stdout).cases.map((c: { shapley: unknown }) => c.shapley)).toEqual(out.cases.map((c: { shapley: unknown }) => c.shapley));
  });

  it('resumes a killed run without sending again what it finished', async () => {
    const e = await endpoint({ latencyMs: 30 });
    const dir = tempDir();
    const cache = join(dir, 'responses.jsonl');
    const file = definitionFile(dir);
    const lines = () => (existsSync(cache) ? readFileSync(cache, 'utf8').split('\n').length - 1 : 0);
    const killed = await blame([file, '--model-url', e.url, '--cache', cache, '--json', '--concurrency', '1'], { killWhen: () => lines() >= 5 });
    expect(killed.status).toBeNull();
    const before = e.requests.length;
    expect(before).toBeGreaterThanOrEqual(5);
    const resumed = await blame([file, '--model-url', e.url, '--cache', cache, '--json']);
    expect(resumed.status).toBe(0);
    // At most the requests in flight at the kill are sent twice; every finished one is reused.
    expect(e.requests.length - distinct(e)).toBeLessThanOrEqual(before - lines.length);
    expect(JSON.parse(resumed.stdout).cases.map((c: { shapley: unknown }) => c.shapley)).toEqual(inProcess().map((r) => r.shapley));
  });

  it('skips a torn last line with a warning and sends again only the lost lines; --model names the model of a definition without one', async () => {
    const e = await endpoint({ models: ['toy-1'] });
    const dir = tempDir();
    const cache = join(dir, 'responses.jsonl');
    const file = definitionFile(dir, TRIAGE_SOURCE);
    const first = await blame([file, '--model-url', e.url, '--model', 'toy-1', '--cache', cache, '--json']);
    expect(first.status).toBe(0);
    const sent = e.requests.length;
    expect(new Set(e.requests.map((r) => r.model))).toEqual(new Set(['toy-1']));
    expect(readFileSync(cache, 'utf8').trimEnd().split('\n')).toHaveLength(sent);
    // As if killed while writing the fourth line: three whole lines and a torn one.
    const text = readFileSync(cache, 'utf8');
    writeFileSync(cache, text.split('\n').slice(0, 3).join('\n') + '\n' + text.split('\n')[3].slice(0, 40));
    const resumed = await blame([file, '--model-url', e.url, '--model', 'toy-1', '--cache', cache, '--json']);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain('skipped 1 torn line at the end');
    expect(e.requests.length).toBe(sent + sent - 3);
    expect(readFileSync(cache, 'utf8').trimEnd().split('\n')).toHaveLength(sent);
    expect(JSON.parse(resumed.stdout).cases.map((c: { shapley: unknown }) => c.shapley)).toEqual(JSON.parse(first.stdout).cases.map((c: { shapley: unknown }) => c.shapley));
  });

  it('retries 429 and 500 answers, and honours Retry-After', async () => {
    const e = await endpoint();
    e.failNext({ kind: 'status', status: 429, retryAfter: '0' }, { kind: 'status', status: 500 }, { kind: 'reset' });
    const dir = tempDir();
    const r = await blame([definitionFile(dir), '--model-url', e.url, '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).cases.map((c: { shapley: unknown }) => c.shapley)).toEqual(inProcess().map((x) => x.shapley));
  });

  it('gives each case its error when the endpoint is down, names the step, and still prints the rest', async () => {
    const e = await endpoint();
    const url = e.url;
    await e.close();
    endpoints.splice(endpoints.indexOf(e), 1);
    const dir = tempDir();
    const r = await blame([definitionFile(dir), '--model-url', url, '--json'], { env: {} });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    for (const c of out.cases) expect(c.error).toMatch(/step "classify": llm\.choose failed: .*127\.0\.0\.1/);
    expect(out.cases[0].error).toContain(`model endpoint ${url} could not be reached (connection refused (ECONNREFUSED))`);
  }, 120_000);

  it('fails a case at once on a 401, quoting the endpoint, and never writes or prints the key', async () => {
    const key = 'sk-test-0123456789abcdef';
    const e = await endpoint({ apiKey: key });
    const dir = tempDir();
    const cache = join(dir, 'responses.jsonl');
    const report = join(dir, 'report.html');
    const ok = await blame([definitionFile(dir), '--model-url', e.url, '--api-key-env', 'AGENTBLAME_TEST_KEY', '--cache', cache, '--json', '--html', report], { env: { AGENTBLAME_TEST_KEY: key } });
    expect(ok.status).toBe(0);
    expect(e.authorizations.every((a) => a === `Bearer ${key}`)).toBe(true);
    const before = e.requests.length;
    const wrong = await blame([definitionFile(dir), '--model-url', e.url, '--api-key-env', 'AGENTBLAME_TEST_KEY', '--json', '--mode', 'prior'], { env: { AGENTBLAME_TEST_KEY: 'sk-wrong-key-000000' } });
    expect(wrong.status).toBe(1);
    expect(JSON.parse(wrong.stdout).cases[0].error).toContain('answered HTTP 401: "Incorrect API key provided."');
    // Remembered for the run: each failing request is sent once, not again for every coalition or round.
    const wrongRequests = e.requests.slice(before);
    expect(wrongRequests.length).toBe(new Set(wrongRequests.map((r) => requestKey(r))).size);
    const everything = [ok.stdout, ok.stderr, wrong.stdout, wrong.stderr, ...readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'))].join('\n');
    expect(everything).not.toContain(key);
    expect(everything).not.toContain('sk-wrong-key-000000');
    const unset = await blame([definitionFile(dir), '--model-url', e.url, '--api-key-env', 'AGENTBLAME_UNSET_VARIABLE', '--json']);
    expect(unset.status).toBe(2);
    expect(unset.stderr).toBe('blame: --api-key-env: the environment variable AGENTBLAME_UNSET_VARIABLE is not set (or empty)\n');
  });

  it('makes a miss offline a per-case error naming the step', async () => {
    const dir = tempDir();
    const r = await blame([definitionFile(dir), '--offline', '--json']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).cases[0].error).toMatch(/^case "t0": step "classify": llm\.choose failed: offline: no cached response/);
  });

  it('refuses a file that is not a cache, and a read-only cache that does not exist, as bad input (exit 2) without touching them', async () => {
    const dir = tempDir();
    const file = definitionFile(dir);
    const notCache = join(dir, 'notes.txt');
    writeFileSync(notCache, 'hello\n');
    const bad = await blame([file, '--cache', notCache, '--offline']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${notCache} line 1: not a response cache line`);
    expect(statSync(notCache).size).toBe(6);
    const missing = join(dir, 'typo.jsonl');
    const offline = await blame([file, '--cache', missing, '--offline']);
    expect(offline.status).toBe(2);
    expect(offline.stderr).toBe(`blame: --cache ${missing}: no such file (with --offline nothing is written, so it must exist)\n`);
    const second = await blame([file, '--model-url', 'http://127.0.0.1:9', '--cache', join(dir, 'new.jsonl'), '--cache', missing]);
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(`--cache ${missing}: no such file (only the first --cache is written`);
    expect(existsSync(missing) || existsSync(join(dir, 'new.jsonl'))).toBe(false);
  });
});
