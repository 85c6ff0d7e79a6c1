import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isModelFailure, requestKey, type ChatRequest, type ModelResponse } from '../../src/engine/model-call.ts';
import { chatRequest, chooseRequest, labelLogits } from '../../src/engine/step-llm.ts';
import { endpointConfig, ModelHost } from '../../src/model/index.ts';
import { openCaches } from '../../src/model/index.node.ts';
import { modelPath, moduleDir, REPO_ROOT } from './install.ts';
import { startRealEndpoint, type RealEndpoint } from './llama-endpoint.ts';

// Model steps against a real model (stories260K through node-llama-cpp, one slot): real token
// boundaries, real log-probabilities, real sampling. Figures go to stdout for bench/README.md.
let endpoint: RealEndpoint;
const dir = mkdtempSync(join(tmpdir(), 'agentblame-real-model-'));
const figures: string[] = [];

beforeAll(async () => {
  const started = Date.now();
  endpoint = await startRealEndpoint(moduleDir(), modelPath());
  figures.push(`model loaded in ${Date.now() - started} ms`);
});

afterAll(async () => {
  await endpoint?.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`real-model figures:\n  ${figures.join('\n  ')}`);
});

function host(extra: ConstructorParameters<typeof ModelHost>[0] = {}): ModelHost {
  return new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url, models: { default: endpoint.modelId }, concurrency: 1, timeoutMs: 120_000 }), ...extra });
}

async function ask(request: ChatRequest, h = host()): Promise<ModelResponse> {
  const answer = (await h.resolve([{ key: requestKey(request), request, step: 'real', caseId: 'c0' }])).get(requestKey(request))!;
  if (isModelFailure(answer)) throw new Error(answer.error);
  return answer;
}

describe('a real model behind an OpenAI-compatible endpoint', () => {
  it('choose: the option letters are read at the model\'s own token boundaries, from its real log-probabilities', async () => {
    const options = ['happy', 'sad'];
    const request = chooseRequest({ messages: [{ role: 'user', content: 'Tom had a ball.' }], options }, options, endpoint.modelId);
    const started = Date.now();
    const response = await ask(request);
    figures.push(`one choose request: ${Date.now() - started} ms`);
    expect(response.topLogprobs).toHaveLength(20);
    const total = response.topLogprobs!.reduce((s, t) => s + Math.exp(t.logprob), 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(1 + 1e-9);
    const logits = labelLogits(response, options, 'real', request);
    // At least one letter is among the top tokens (else the host would have refused the answer).
    expect(Object.values(logits).some(Number.isFinite)).toBe(true);
    figures.push(`choose logits: ${JSON.stringify(logits)}`);
  });

  it('chat: one seed gives one text, run after run; another seed samples another', async () => {
    const messages = [{ role: 'user' as const, content: 'Once upon a time' }];
    const seeded = (seed: number) => chatRequest({ messages, temperature: 0.9, max_tokens: 24 }, endpoint.modelId, () => seed);
    const first = await ask(seeded(7));
    const again = await ask(seeded(7), host());
    expect(again.text).toBe(first.text);
    const others = await Promise.all([11, 12, 13].map((seed) => ask(seeded(seed), host())));
    expect(others.some((o) => o.text !== first.text)).toBe(true);
    figures.push(`seeded chat (24 tokens at most): "${first.text.slice(0, 60)}"`);
  });

  it('the command: every request sent once, usage adding up to the server\'s count, a rerun from the cache sends none, offline the same values', async () => {
    const cache = join(dir, 'order-desk.jsonl');
    // Asynchronous: the endpoint answers from this process, so the command must not block it.
    const blame = (...args: string[]) =>
      new Promise<{ status: number | null; stderr: string; ms: number; out: any }>((resolve, reject) => {
        const started = Date.now();
        const child = spawn(process.execPath, ['src/cli/blame.mjs', 'public/demos/order-desk.pipeline.js', '--json', ...args], { cwd: REPO_ROOT });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.on('error', reject);
        child.on('close', (status) => resolve({ status, stderr, ms: Date.now() - started, out: stdout ? JSON.parse(stdout) : null }));
      });
    const before = endpoint.answered;
    const first = await blame('--model-url', endpoint.url, '--model', endpoint.modelId, '--concurrency', '1', '--timeout-request', '120', '--cache', cache);
    expect(first.status, first.stderr).toBe(0);
    const sent = endpoint.answered - before;
    expect(first.out.batch.usage.requests).toBe(sent);
    const perCase = first.out.cases.reduce((s: number, c: { usage: { requests: number } }) => s + c.usage.requests, 0);
    expect(perCase).toBe(sent);
    expect(readFileSync(cache, 'utf8').trimEnd().split('\n')).toHaveLength(sent);
    figures.push(`order-desk, 6 cases: ${sent} requests in ${first.ms} ms (${(first.ms / sent).toFixed(0)} ms a request, one slot), usage ${JSON.stringify(first.out.batch.usage)}`);

    const rerun = await blame('--model-url', endpoint.url, '--model', endpoint.modelId, '--cache', cache);
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(endpoint.answered - before).toBe(sent);
    expect(rerun.out.batch.usage).toEqual({ ...first.out.batch.usage, requests: 0, cacheHits: sent });
    const offline = await blame('--offline', '--model', endpoint.modelId, '--cache', cache);
    expect(offline.status, offline.stderr).toBe(0);
    const shapley = (run: typeof first) => run.out.cases.map((c: { shapley: unknown }) => c.shapley);
    expect(shapley(rerun)).toEqual(shapley(first));
    expect(shapley(offline)).toEqual(shapley(first));
    figures.push(`rerun from the cache: 0 requests in ${rerun.ms} ms; offline: ${offline.ms} ms; mean Shapley ${first.out.batch.steps.map((x: { step: string; meanShapley: number }) => `${x.step} ${x.meanShapley.toFixed(3)}`).join(', ')}`);
  });

  it('a model swapped behind the id is told apart by the file the server lists', async () => {
    const cache = openCaches([join(dir, 'order-desk.jsonl')]).cache;
    const [entry] = cache.entries();
    expect(entry.response.served?.identity).toContain(`model_path ${modelPath()}`);
    expect(entry.response.served?.model).toBe(endpoint.modelId);
  });
});
