/**
 * The words and colours a new user reads: one headline builder for the page and the report (a tie
 * names every tied step), "1 failure", a run of errors alone is not "Done … step cost 0", the
 * report's bars use the workbench's blame colours and its method line says what ran, and new
 * settings keep the old results on show until their own arrive.
 */
import { expect, test, downloadedText } from './fixtures.ts';
import { demoFile, dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

const THROWS = `export default {
  name: "throws",
  steps: [{ name: "only", inputs: ["q"], cost: 1, run: () => { throw new Error("boom in only"); }, fixes: [{ name: "f", cost: 1, run: () => 1 }] }],
  metric: (o) => (o.only === 1 ? 1 : 0),
  cases: [{ id: "c1", inputs: { q: 1 } }],
};
`;

test('a tie names every tied step, in the page and in the report; one failure is "1 failure"; the report says exact ran', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page);
  const headline = page.getByTestId('batch-headline');
  await expect(headline).toHaveText('Most blamed: planner and retriever, 0.417 each; fixing planner alone resolves 100.0 % of failures');
  await expect(page.getByTestId('batch-failures')).toHaveText('1 failure');
  await page.screenshot({ path: 'test-results/wording-batch.png' });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export report' }).click();
  const html = await downloadedText(await download);
  expect(html).toContain('Most blamed: planner and retriever, 0.417 each; fixing planner alone resolves 100.0 % of failures.');
  expect(html).toContain('1 failure, 1 analysed');
  // What ran: exact, chosen by auto; no estimator, stop rule or budget of a Monte Carlo run that never happened.
  expect(html).toContain('exact Shapley over every coalition (chosen by auto)');
  expect(html).not.toContain('estimator (');
  expect(html).not.toContain('<dt>Stop rule</dt>');
  // The workbench's blame and negative-blame colours.
  expect(html).toContain('--pos: #c2410c; --neg: #1d63c9;');
  expect(html).toContain('svg.chart .bar.b-shapley { fill: var(--pos); }');
});

test('when the only case errors, the progress line says so instead of "Done: 1 case · step cost 0"', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'throws.pipeline.js', content: THROWS, type: 'text/javascript' }]);
  await waitForDone(page);
  const progress = page.getByTestId('run-progress');
  await expect(progress).toContainText('Done, but the case could not be analysed');
  await expect(progress).not.toContainText('step cost 0');
  // The case list says what went wrong, not only that something did.
  await page.getByRole('tab', { name: /^Cases/ }).click();
  await expect(page.getByTestId('case-error')).toContainText('boom in only');
});

test('switching to Monte Carlo keeps the results on show until the new ones arrive', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  // Watch for the empty state from now on.
  await page.evaluate(() => {
    const seen = { waiting: false, emptied: false };
    (window as unknown as { seen: typeof seen }).seen = seen;
    new MutationObserver(() => {
      const text = document.body.innerText;
      if (text.includes('Waiting for the first results')) seen.waiting = true;
      if (text.includes('No results yet')) seen.emptied = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.locator('#setting-method').selectOption('mc');
  // The re-run starts after a short pause for more changes (350 ms); the Monte Carlo run then ends as done.
  await expect(page.getByTestId('run-progress')).not.toHaveAttribute('data-status', 'done', { timeout: 5_000 }).catch(() => undefined);
  await waitForDone(page);
  await expect(page.getByTestId('previous-settings')).toHaveCount(0);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  expect(await page.evaluate(() => (window as unknown as { seen: { waiting: boolean; emptied: boolean } }).seen)).toEqual({ waiting: false, emptied: false });
});
