import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { downloadedText } from './fixtures.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

/**
 * Session files move between the page and the command both ways (docs/shards.md): a
 * session the page exports opens in the command, shards the command writes merge in the page.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RAG = 'public/demos/stochastic-rag.trace.json';
const DIR = mkdtempSync(join(tmpdir(), 'e2e-shards-'));

function blame(...args: string[]): string {
  return execFileSync(process.execPath, ['src/cli/blame.mjs', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
}

async function exportedSession(page: import('@playwright/test').Page): Promise<string> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  return downloadedText(await downloading);
}

const sessionFile = (name: string) => ({ name, content: readFileSync(join(DIR, name), 'utf8'), type: 'application/json' });

test('a session file written by the page opens in the command, printed as stored', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('./');
  await dropFiles(page, [{ name: 'stochastic-rag.trace.json', content: readFileSync(join(ROOT, RAG), 'utf8'), type: 'application/json' }]);
  await waitForDone(page, 120_000);
  const path = join(DIR, 'from-page.agentblame-session.json');
  writeFileSync(path, await exportedSession(page));
  // The page's exact recorded run is the command's default run: the stored results print the same.
  expect(JSON.parse(blame(path, '--json')).cases).toEqual(JSON.parse(blame(RAG, '--json')).cases);
});

test('shards written by the command, dropped together, open in the page as the whole study', async ({ page }) => {
  test.setTimeout(180_000);
  for (const i of [1, 2, 3]) blame(RAG, '--shard', `${i}/3`, '--save', join(DIR, `shard-${i}.json`));
  const whole = JSON.parse(blame(RAG, '--json'));
  await page.goto('./');
  await dropFiles(page, [sessionFile('shard-2.json'), sessionFile('shard-3.json'), sessionFile('shard-1.json')]);
  await waitForDone(page, 120_000);
  const merged = JSON.parse(await exportedSession(page));
  expect(merged.results.map((r: { id: string }) => r.id)).toEqual(whole.cases.map((c: { id: string }) => c.id));
  const pick = (r: { id: string; shapley?: unknown; vAll: number; cost: number }) => ({ id: r.id, shapley: r.shapley, vAll: r.vAll, cost: r.cost });
  expect(merged.results.map(pick)).toEqual(whole.cases.map(pick));
});

test('shards of different settings dropped together are refused, naming the file and the setting', async ({ page }) => {
  test.setTimeout(120_000);
  blame(RAG, '--shard', '1/2', '--save', join(DIR, 'a.json'));
  blame(RAG, '--shard', '2/2', '--seed', '5', '--save', join(DIR, 'b.json'));
  await page.goto('./');
  await dropFiles(page, [sessionFile('a.json'), sessionFile('b.json')]);
  await expect(page.getByText(/"b\.json" is not the same study as "a\.json": other settings: seed 5, not/)).toBeVisible();
});
