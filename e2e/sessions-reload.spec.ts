/**
 * A reload at any moment keeps the study: the session is stored when the study opens, and what the
 * autosave still holds is written when the page is hidden or left, so nothing depends on the
 * autosave's delay. Reloads come at once after the first result, after the last, and mid-run.
 */
import { expect, sessionRow, storedSummaries, test, waitForStored } from './fixtures.ts';
import { demoFile, dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

/** Forty cases whose steps each spin for a while, so the analysis is still running when the page reloads. */
const SLOW_DEFINITION = `function spin(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + i) % 7; return s; }
export default {
  name: "slow-reload",
  steps: [
    { name: "a", inputs: ["x"], cost: 1, run: ({ x }) => spin(1e7) * 0 + x, fixes: [{ name: "up", cost: 1, run: ({ x }) => spin(1e7) * 0 + x + 1 }] },
    { name: "b", inputs: ["a"], cost: 1, run: ({ a }) => spin(1e7) * 0 + a, fixes: [{ name: "up", cost: 1, run: ({ a }) => spin(1e7) * 0 + a + 1 }] },
  ],
  metric: (outputs) => (outputs.b >= 2 ? 1 : 0),
  cases: Array.from({ length: 40 }, (_, i) => ({ id: "s" + i, inputs: { x: 0 } })),
};
`;

/** The count of analysed cases the progress line shows now ("Analysing: 12 of 40 cases"). */
async function shownDone(page: import('@playwright/test').Page): Promise<number> {
  const text = await page.getByTestId('run-progress').innerText();
  const found = /(\d+) of 40/.exec(text);
  return found ? Number(found[1]) : 0;
}

test('a reload at once after the last result keeps the study, its address and its place in Recent sessions', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  await page.reload();
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-status', 'done');
  expect(await page.evaluate(() => location.hash)).toContain('session=');
  const [stored] = await storedSummaries(page);
  expect(stored?.status).toBe('done');
  await page.goto('./');
  await expect(sessionRow(page, stored.id).getByTestId('session-open')).toHaveText(stored.name);
});

for (const when of ['the first result', 'mid-run'] as const) {
  test(`a reload at once after ${when} keeps every result shown and is not called cancelled`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto('./?workers=1');
    await dropFiles(page, [{ name: 'slow.pipeline.js', content: SLOW_DEFINITION, type: 'text/javascript' }]);
    const progress = page.getByTestId('run-progress');
    const least = when === 'the first result' ? 1 : 4;
    await expect.poll(() => shownDone(page), { timeout: 120_000 }).toBeGreaterThanOrEqual(least);
    // Mid-run, results are saved a short while after they show (the autosave's throttle): the
    // reload comes at once after a save has landed. The first results are saved as they show.
    const seen = when === 'mid-run' ? (await waitForStored(page, (s) => s.casesAnalysed >= least, 60_000)).casesAnalysed : await shownDone(page);
    expect(seen).toBeLessThan(40);
    await page.reload();
    await expect(progress).toBeVisible();
    await expect.poll(() => shownDone(page)).toBeGreaterThanOrEqual(seen);
    await expect(progress).not.toContainText('Cancelled');
    await expect(progress).toHaveAttribute('data-status', 'interrupted');
    await expect(progress).toContainText('Interrupted');
    await expect(progress.getByRole('button', { name: 'Resume' })).toBeVisible();
    if (when === 'the first result') return;
    await progress.getByRole('button', { name: 'Resume' }).click();
    await waitForDone(page, 150_000);
    await expect(progress).toContainText('Done: 40 cases');
  });
}
