import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { downloadedText } from './fixtures.ts';
import { batchTableText, demoFile, dropFiles, waitForDone } from './workbench-helpers.ts';

/**
 * docs/architecture.md: the same inputs and seed give bit-identical results in Node and the browser. The page's
 * exported session is compared, case by case and to the last bit, with the headless command's JSON.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function headless(...args: string[]) {
  const out = execFileSync(process.execPath, ['src/cli/blame.mjs', 'public/demos/stochastic-rag.trace.json', '--json', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out) as { cases: { id: string; shapley?: Record<string, number>; ci?: Record<string, [number, number]>; vAll: number; cost: number; permutations: number }[] };
}

async function browserResults(page: import('@playwright/test').Page) {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  const session = JSON.parse(await downloadedText(await downloading));
  return session.results as { id: string; shapley?: Record<string, number>; ci?: Record<string, [number, number]>; vAll: number; cost: number; permutations: number }[];
}

const pick = (r: { id: string; shapley?: unknown; ci?: unknown; vAll: number; cost: number; permutations: number }) => ({ id: r.id, shapley: r.shapley, ci: r.ci, vAll: r.vAll, cost: r.cost, permutations: r.permutations });

test('the browser and the headless command give bit-identical results, exact and Monte Carlo', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('./?workers=2');
  await dropFiles(page, [demoFile('stochastic-rag.trace.json')]);
  await waitForDone(page);
  const exact = (await browserResults(page)).map(pick).sort((a, b) => a.id.localeCompare(b.id));
  const nodeExact = headless().cases.map(pick).sort((a, b) => a.id.localeCompare(b.id));
  expect(exact.filter((r) => r.shapley).length).toBeGreaterThan(100);
  expect(exact).toEqual(nodeExact);

  // Each re-run can finish before a 'running' state is ever polled: wait for its different results.
  const recordedTable = await batchTableText(page);
  await page.getByLabel('Mode', { exact: true }).selectOption('posterior');
  await expect.poll(() => batchTableText(page), { timeout: 150_000 }).not.toBe(recordedTable);
  await waitForDone(page, 150_000);
  const posteriorExactTable = await batchTableText(page);
  await page.getByLabel('Shapley values').selectOption('mc');
  // Monte Carlo on this small demo finishes with the exact values (its table may not change): wait
  // until the session holds a result of the new settings for every case (it saves no other).
  void posteriorExactTable;
  await expect.poll(async () => (await browserResults(page)).length, { timeout: 150_000, intervals: [2_000] }).toBe(exact.length);
  await waitForDone(page, 150_000);
  const rawMc = await browserResults(page);
  const mc = rawMc.map(pick).sort((a, b) => a.id.localeCompare(b.id));
  const nodeMc = headless('--mode', 'posterior', '--worlds', '8', '--method', 'mc', '--seed', '1').cases.map(pick).sort((a, b) => a.id.localeCompare(b.id));
  // Sampled (it then finished with the exact values, within a permutation's worth of queries).
  expect(rawMc.some((r) => (r as { method?: string }).method === 'mc')).toBe(true);
  expect(mc).toEqual(nodeMc);
});
