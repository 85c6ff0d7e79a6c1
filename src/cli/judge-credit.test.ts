/**
 * --judge-credit against the loopback fake endpoint (the deterministic test model, which prefers
 * the option named by the first PREFER:x in the prompt): one request per step, the judge's
 * probability of "yes" as the score, cached, and written with --save-credit as a credit file the
 * audit reads back.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBlame } from './testing/run-blame.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeEndpoint, type FakeEndpoint } from '../model/testing/fake-endpoint.ts';

const PIPELINE = join(import.meta.dirname, 'fixtures/judge.pipeline.js');

const blame = (args: string[]) => runBlame(args);

const endpoints: FakeEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});

describe('--judge-credit', () => {
  it('asks once per step, scores the decisive step highest, caches, and saves a credit file the audit reads', async () => {
    const e = await startFakeEndpoint();
    endpoints.push(e);
    const dir = mkdtempSync(join(tmpdir(), 'blame-judge-'));
    const cache = join(dir, 'cache.jsonl');
    const saved = join(dir, 'credit.json');
    const rubric = 'You audit failed pipeline runs.';
    const first = await blame([PIPELINE, '--judge-credit', rubric, '--model-url', e.url, '--model', 'fake-model', '--cache', cache, '--save-credit', saved, '--json']);
    expect(first.status).toBe(0);
    expect(e.requests).toHaveLength(6); // 2 failures x 3 steps
    expect(e.requests[0].messages[0]).toEqual({ role: 'system', content: rubric });
    // The options close the last user message (strict chat templates refuse two user messages in a row).
    expect(e.requests[0].messages.at(-1)!.role).toBe('user');
    expect(e.requests[0].messages.at(-1)!.content).toMatch(/decisive error[^]*\nAnswer with the letter of one option only\.\nA\. yes\nB\. no$/);
    const judge = JSON.parse(first.stdout).audit.signals.find((s: { name: string }) => s.name === 'judge');
    expect(judge).toMatchObject({ builtin: false, cases: 2 });
    const credit = JSON.parse(readFileSync(saved, 'utf8'));
    expect(credit.format).toBe('agentblame-credit');
    for (const id of ['j1', 'j2']) {
      const s = credit.signals.judge[id];
      expect(s.search).toBeGreaterThan(0.5);
      expect(s.plan).toBeLessThan(0.5);
      expect(s.write).toBeLessThan(0.5);
    }
    // The search is the pivotal step in both cases, and the judge's top step.
    expect(judge.pivotal).toMatchObject({ hits: 2, n: 2 });

    // From the cache: nothing sent, the same audit; the saved file audits to the same numbers.
    const offline = await blame([PIPELINE, '--judge-credit', rubric, '--model', 'fake-model', '--cache', cache, '--offline', '--json']);
    expect(e.requests).toHaveLength(6);
    expect(JSON.parse(offline.stdout).audit).toEqual(JSON.parse(first.stdout).audit);
    const reread = await blame([PIPELINE, '--audit', saved, '--json']);
    const rejudged = JSON.parse(reread.stdout).audit.signals.find((s: { name: string }) => s.name === 'judge');
    expect(rejudged).toEqual(judge);
  }, 120_000);

  it('needs a model', async () => {
    const r = await blame([PIPELINE, '--judge-credit', 'rubric', '--json']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')[0]).toMatch(/--judge-credit: name the judge model with --model ID/);
  }, 60_000);
});

describe('--pairs with model steps', () => {
  it('gives a chat step\'s request messages as the prompt', async () => {
    const { TRIAGE_SOURCE } = await import('../sandbox/testing/triage-source.ts');
    const { writeFileSync } = await import('node:fs');
    const e = await startFakeEndpoint();
    endpoints.push(e);
    const dir = mkdtempSync(join(tmpdir(), 'blame-pairs-model-'));
    const file = join(dir, 'triage.pipeline.js');
    writeFileSync(file, TRIAGE_SOURCE.replace("name: 'triage',", "name: 'triage', models: { default: 'fake-model' },"));
    const pairsFile = join(dir, 'pairs.jsonl');
    const r = await blame([file, '--model-url', e.url, '--repairs', '--pairs', pairsFile, '--json']);
    expect(r.status).toBe(0);
    const lines = readFileSync(pairsFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    const drafts = lines.filter((p) => p.step === 'draft');
    expect(drafts.length).toBeGreaterThan(0);
    for (const p of drafts) {
      expect(p.prompt).toEqual([{ role: 'system', content: 'ANSWER:sorry' }, { role: 'user', content: expect.stringMatching(/^order \d arrived broken$/) }]);
      expect(p.chosen).not.toEqual(p.rejected);
    }
  }, 120_000);
});
