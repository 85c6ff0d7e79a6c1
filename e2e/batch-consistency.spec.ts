import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { downloadedText } from './fixtures.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A metric on 0..10 with threshold 7: every case fails as run, the polish fix alone repairs most. */
const TEN_POINT = `export default {
  name: "ten-point",
  range: [0, 10],
  threshold: 7,
  steps: [
    { name: "draft", inputs: ["q"], cost: 1, run: (_, noise) => Math.floor(noise.uniform() * 5),
      fixes: [{ name: "better", cost: 1, run: () => 4 }] },
    { name: "polish", inputs: ["draft"], cost: 1, run: ({ draft }) => draft,
      fixes: [{ name: "better", cost: 1, run: ({ draft }) => draft + 6 }] },
  ],
  metric: (o) => Math.min(10, o.polish + (o.draft >= 4 ? 2 : 0)),
  cases: Array.from({ length: 24 }, (_, i) => ({ id: "c" + i, inputs: { q: i } })),
};
`;

const EVERY_CASE_THROWS = `export default {
  name: "always-throws",
  steps: [{ name: "lookup", inputs: ["q"], cost: 1, run: () => { throw new Error("no such order"); },
    fixes: [{ name: "retry", cost: 1, run: () => "ok" }] }],
  metric: (o) => (o.lookup === "ok" ? 1 : 0),
  cases: [{ id: "a", inputs: { q: 1 } }, { id: "b", inputs: { q: 2 } }],
};
`;

interface BatchJson {
  failures: number;
  analyzed: number;
  steps: { step: string; meanShapley: number; ci: [number, number]; fixAloneRate: number; share: number }[];
}

test('the page and the command give the same batch, intervals included, for a definition with its own range', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-range-'));
  writeFileSync(join(dir, 'ten-point.pipeline.js'), TEN_POINT);
  const command = JSON.parse(execFileSync(process.execPath, ['src/cli/blame.mjs', join(dir, 'ten-point.pipeline.js'), '--json'], { cwd: ROOT, encoding: 'utf8' })) as { batch: BatchJson };

  await page.goto('./?workers=2');
  await dropFiles(page, [{ name: 'ten-point.pipeline.js', content: TEN_POINT, type: 'text/javascript' }]);
  await waitForDone(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  const browser = JSON.parse(await downloadedText(await downloading)).batch as BatchJson;

  expect(command.batch.analyzed).toBe(24);
  expect(browser.steps).toEqual(command.batch.steps);
  for (const s of browser.steps) {
    // An interval on a 0..10 metric contains its own mean, and a fix-alone rate is a rate.
    expect(s.ci[0]).toBeLessThanOrEqual(s.meanShapley);
    expect(s.ci[1]).toBeGreaterThanOrEqual(s.meanShapley);
    expect(s.fixAloneRate).toBeGreaterThanOrEqual(0);
    expect(s.fixAloneRate).toBeLessThanOrEqual(1);
  }
});

test('a study whose every case could not be analysed says so once, with no waiting message or empty chart', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'always-throws.pipeline.js', content: EVERY_CASE_THROWS, type: 'text/javascript' }]);
  await waitForDone(page);
  await expect(page.getByTestId('batch-no-analysed')).toContainText('2 cases could not be analysed');
  await expect(page.getByText('Waiting for the first results')).toHaveCount(0);
  await expect(page.getByTestId('batch-table')).toHaveCount(0);
});

/** Many failing cases, most of the blame on `draft`: the batch stop ends the stream early. */
const MANY_CASES = `export default {
  name: "many-cases",
  steps: [
    { name: "draft", inputs: ["q"], cost: 1, run: (_, noise) => (noise.uniform() < 0.9 ? "bad" : "ok"),
      fixes: [{ name: "better", cost: 1, run: () => "ok" }] },
    { name: "check", inputs: ["draft"], cost: 1, run: ({ draft }, noise) => (draft === "ok" || noise.uniform() < 0.5 ? "ok" : "bad"),
      fixes: [{ name: "strict", cost: 1, run: () => "ok" }] },
  ],
  metric: (o) => (o.draft === "ok" && o.check === "ok" ? 1 : 0),
  cases: Array.from({ length: 300 }, (_, i) => ({ id: "c" + i, inputs: { q: i } })),
};
`;

test('the page stops once the top step separates where the command\'s --batch-stop does, with the same batch', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-stop-'));
  writeFileSync(join(dir, 'many-cases.pipeline.js'), MANY_CASES);
  const command = JSON.parse(execFileSync(process.execPath, ['src/cli/blame.mjs', join(dir, 'many-cases.pipeline.js'), '--batch-stop', '--batch-bound', 'anytime', '--seed', '2', '--json'], { cwd: ROOT, encoding: 'utf8' })) as { batch: BatchJson & { stoppedEarly?: boolean } };
  expect(command.batch.stoppedEarly).toBe(true);
  expect(command.batch.analyzed).toBeLessThan(300);

  await page.goto('./?workers=2');
  await dropFiles(page, [{ name: 'many-cases.pipeline.js', content: MANY_CASES, type: 'text/javascript' }]);
  await waitForDone(page);
  // The stop decides the next analysis: a new seed analyses the study again, stopping this time.
  await page.getByLabel('Mean Shapley CI').selectOption('anytime');
  await page.getByLabel(/Stop once the top step is separated/).check();
  await page.getByLabel('Seed').fill('2');
  await page.getByLabel('Seed').press('Enter');
  await expect(page.getByText('stopped early: the top step separated')).toBeVisible({ timeout: 60_000 });
  await waitForDone(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  const browser = JSON.parse(await downloadedText(await downloading)).batch as BatchJson & { stoppedEarly?: boolean };
  expect(browser.stoppedEarly).toBe(true);
  expect(browser.analyzed).toBe(command.batch.analyzed);
  expect(browser.steps).toEqual(command.batch.steps);

  // A reload keeps the batch interval and the stop with the study: done, stopped early, nothing to resume.
  await page.reload();
  await waitForDone(page);
  await expect(page.getByText('stopped early: the top step separated')).toBeVisible();
  await expect(page.getByLabel(/Stop once the top step is separated/)).toBeChecked();
  await expect(page.getByLabel('Mean Shapley CI')).toHaveValue('anytime');
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  // Turning the stop off analyses the rest, as before the reload.
  await page.getByLabel(/Stop once the top step is separated/).uncheck();
  await expect(page.getByText('stopped early: the top step separated')).toHaveCount(0, { timeout: 60_000 });
  await waitForDone(page);
  await expect(page.getByTestId('run-progress')).toContainText('Done: 300 cases');
});

test('the page\'s bandit batch stop stops where --batch-stop bandit does, with the same batch, and a reload keeps the rule', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-bandit-'));
  writeFileSync(join(dir, 'many-cases.pipeline.js'), MANY_CASES);
  const command = JSON.parse(execFileSync(process.execPath, ['src/cli/blame.mjs', join(dir, 'many-cases.pipeline.js'), '--batch-stop', 'bandit', '--seed', '2', '--json'], { cwd: ROOT, encoding: 'utf8' })) as { batch: BatchJson & { stoppedEarly?: boolean } };
  expect(command.batch.stoppedEarly).toBe(true);

  await page.goto('./?workers=2');
  await dropFiles(page, [{ name: 'many-cases.pipeline.js', content: MANY_CASES, type: 'text/javascript' }]);
  await waitForDone(page);
  await page.getByLabel(/Stop once the top step is separated/).check();
  await page.getByLabel('Batch stop').selectOption('bandit');
  await page.getByLabel('Seed').fill('2');
  await page.getByLabel('Seed').press('Enter');
  await expect(page.getByText('stopped early: the top step separated')).toBeVisible({ timeout: 60_000 });
  await waitForDone(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  const session = JSON.parse(await downloadedText(await downloading)) as { batch: BatchJson & { stoppedEarly?: boolean }; settings: { shareSteps?: boolean }; study: { batchStopRule?: string } };
  expect(session.study.batchStopRule).toBe('bandit');
  expect(session.settings.shareSteps).toBe(true);
  expect(session.batch.stoppedEarly).toBe(true);
  expect(session.batch.analyzed).toBe(command.batch.analyzed);
  expect(session.batch.steps).toEqual(command.batch.steps);

  await page.reload();
  await waitForDone(page);
  await expect(page.getByText('stopped early: the top step separated')).toBeVisible();
  await expect(page.getByLabel('Batch stop')).toHaveValue('bandit');
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);
});
