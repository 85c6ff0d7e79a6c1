import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, moduleDir } from './install.ts';
import { SHIPPED_MODEL_SHAPLEY } from './shipped-model-values.ts';

// The command's --model-file on the shipped model: the Shapley values the page's in-page model is
// checked against (e2e/in-page-model.spec.ts), and a rerun answered by the cache alone.
const dir = mkdtempSync(join(tmpdir(), 'agentblame-model-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function blame(demo: string, cache: string): { batch: { steps: { step: string; meanShapley: number }[]; usage?: { requests: number; cacheHits: number } } } {
  const run = spawnSync(process.execPath, ['src/cli/blame.mjs', `public/demos/${demo}.pipeline.js`, '--model-file', 'public/models/stories260K.gguf', '--cache', cache, '--json'], {
    cwd: REPO_ROOT,
    env: { ...process.env, AGENTBLAME_REAL_MODEL_DIR: moduleDir() },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`blame exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe('--model-file on the shipped model', () => {
  for (const [demo, expected] of Object.entries(SHIPPED_MODEL_SHAPLEY)) {
    it(`${demo}: the values the page gives, and a rerun with no model call`, () => {
      const cache = join(dir, `${demo}.jsonl`);
      const first = blame(demo, cache);
      expect(Object.fromEntries(first.batch.steps.map((s) => [s.step, s.meanShapley]))).toEqual(expected);
      expect(first.batch.usage?.requests).toBeGreaterThan(0);
      expect(readFileSync(cache, 'utf8')).toContain('"model":"gguf-sha256:270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d"');
      const again = blame(demo, cache);
      expect(again.batch.usage).toMatchObject({ requests: 0 });
      expect(Object.fromEntries(again.batch.steps.map((s) => [s.step, s.meanShapley]))).toEqual(expected);
    });
  }
});
