/**
 * `--pairs` on a replay that yields no pair says why in words that apply to a replay (it used to
 * say "game tables have no step outputs", which is about another kind of study).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBlame } from '../cli/testing/run-blame.ts';
import { startFakeEndpoint, type FakeEndpoint } from '../model/testing/fake-endpoint.ts';
import { langfuseExport, scriptedModel } from '../replay/testing/runs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'blame-replay-pairs-'));
let endpoint: FakeEndpoint;
beforeAll(async () => {
  endpoint = await startFakeEndpoint({ answer: scriptedModel });
  writeFileSync(join(DIR, 'run.json'), JSON.stringify(langfuseExport()));
});
afterAll(async () => {
  await endpoint.close();
});

describe('a replay with no training pairs', () => {
  it('says that no combination of fixes repaired the run, not that game tables have no outputs', async () => {
    const pairs = join(DIR, 'pairs.jsonl');
    // Nothing the model writes contains "zebra": no coalition succeeds, so there is no repair to pair.
    const r = await runBlame([join(DIR, 'run.json'), '--replay', '--expect', 'zebra', '--model-url', endpoint.url, '--model', 'fake-model', '--pairs', pairs, '--json']);
    expect(r.status).toBe(0);
    expect(readFileSync(pairs, 'utf8')).toBe('');
    expect(r.stderr).toBe(`blame: note: ${pairs}: no training pairs (no failure has a repair: no combination of fixes made one succeed)\n`);
  });
});
