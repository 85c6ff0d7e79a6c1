/**
 * Minimal repairs, training pairs and the credit audit in the page, on the refund demo: v(S) = 1
 * iff S holds the planner or the retriever, or both writer and reviewer, so its minimal repairs are
 * {planner}, {retriever} and {writer, reviewer}.
 */
import { downloadedText, expect, test } from './fixtures.ts';
import { demoFile, dropFiles, waitForDone } from './workbench-helpers.ts';

test('repairs as chips linked to coalition rows, consensus and pairs in the batch view, and the Audit view', async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto('./');
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page);

  // Batch: the consensus of the one failure, read off its complete coalition table.
  const consensus = page.getByTestId('consensus-table');
  await expect(consensus.locator('tbody tr')).toHaveCount(4);
  await expect(consensus).toContainText('planner');
  await expect(page.getByTestId('export-pairs')).toBeDisabled();

  // The case: one chip per minimal repair; a chip marks its row in the coalition table.
  await page.getByRole('tab', { name: /Cases/ }).click();
  await page.getByRole('button', { name: 'refund-q1' }).click();
  const chips = page.getByTestId('repair-chips').getByRole('button');
  await expect(chips).toHaveText(['{planner} · cost 1', '{retriever} · cost 1', '{writer, reviewer} · cost 2']);
  await chips.nth(2).click();
  const row = page.locator('tr[data-coalition]').filter({ has: page.locator('th', { hasText: '{writer, reviewer}' }) }).first();
  await expect(row).toHaveClass(/highlight/);
  await expect(row).toBeFocused();

  // With the repair search on, the pairs export gives a preference record per repaired step.
  await page.getByRole('tab', { name: 'Batch' }).click();
  await page.locator('#setting-repairs').check();
  await waitForDone(page);
  await expect(page.getByTestId('export-pairs')).toBeEnabled();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-pairs').click();
  const lines = (await downloadedText(await downloading)).trimEnd().split('\n').map((l) => JSON.parse(l));
  expect(lines.length).toBeGreaterThan(0);
  for (const p of lines) {
    expect(p.case).toBe('refund-q1');
    expect(p.step).toBe('planner'); // the first repair: {planner}, cost 1, first in pipeline order
    expect(typeof p.prompt === 'string' && p.prompt.length > 0).toBe(true);
    expect(p.chosen).not.toEqual(p.rejected);
  }

  // The Audit view shows the built-in signals with no file, and one case is too few for a verdict.
  await page.getByRole('tab', { name: 'Audit' }).click();
  const fixAlone = page.getByTestId('audit-table').locator('tr[data-signal="fix-alone"]');
  await expect(fixAlone).toContainText('1 of 1');
  await expect(fixAlone).toContainText('too few cases');
  await expect(page.getByTestId('audit-table').locator('caption')).toContainText('The built-in signals (drop a credit file to add your own)');

  // A dropped credit file that copies the Shapley values ranks perfectly.
  const credit = { format: 'agentblame-credit', signals: { judge: { 'refund-q1': { planner: 0.9, retriever: 0.8, writer: 0.1, reviewer: 0.05 } } } };
  await page.getByTestId('audit-file').setInputFiles({ name: 'credit.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(credit)) });
  const judge = page.getByTestId('audit-table').locator('tr[data-signal="judge"]');
  await expect(judge).toContainText('1 of 1');
  await expect(judge).toContainText('too few cases');
  await expect(page.getByTestId('audit-chart').locator('svg')).toBeVisible();
  // The signal and its shuffled control in the page's colours, told apart and named in a legend (they were both drawn black).
  const fills = await page.getByTestId('audit-chart').locator('rect.bar').evaluateAll((bars) => [...new Set(bars.map((b) => getComputedStyle(b).fill))]);
  expect(fills).toHaveLength(2);
  expect(fills).not.toContain('rgb(0, 0, 0)');
  await expect(page.getByTestId('audit-chart').locator('figcaption')).toContainText('shuffled within each case');

  // A credit file naming an unknown case is refused with its JSON path.
  const bad = { signals: { judge: { nope: { planner: 1 } } } };
  await page.getByTestId('audit-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await expect(page.getByTestId('audit-error')).toContainText('signals.judge.nope');
});

/**
 * A metric scored from 0 to 10: v({}) = 0, v({a}) = 4, v({b}) = 10, v({a, b}) = 10. The case
 * view's chips, read off the coalition table, repair at the range's upper end as the batch view's
 * consensus and the command do: {b} only ({a} reaches 4, not 10).
 */
const TEN_POINTS = `export default {
  name: "ten-points",
  range: [0, 10],
  steps: [
    { name: "a", inputs: ["q"], cost: 1, run: () => "bad", fixes: [{ name: "good", cost: 1, run: () => "good" }] },
    { name: "b", inputs: ["a"], cost: 1, run: () => "bad", fixes: [{ name: "good", cost: 1, run: () => "good" }] },
  ],
  metric: (o) => (o.b === "good" ? 10 : o.a === "good" ? 4 : 0),
  cases: [{ id: "c1", inputs: { q: 1 } }],
};
`;

test('the case view and the batch view judge repairs by the metric\'s range', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./');
  await dropFiles(page, [{ name: 'ten-points.pipeline.js', content: TEN_POINTS, type: 'text/javascript' }]);
  await waitForDone(page);
  const consensus = page.getByTestId('consensus-table');
  const row = (step: string) => consensus.locator('tbody tr').filter({ has: page.locator('th', { hasText: new RegExp(`^${step}$`) }) });
  await expect(row('a').locator('td').first()).toHaveText('0 of 1');
  await expect(row('b').locator('td').first()).toHaveText('1 of 1');
  await page.getByRole('tab', { name: /Cases/ }).click();
  await page.getByRole('button', { name: 'c1' }).click();
  await expect(page.getByTestId('repair-chips').getByRole('button')).toHaveText(['{b} · cost 1']);
});
