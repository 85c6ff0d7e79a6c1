import { expect, test, type Page } from '@playwright/test';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

/** Six voters in a chain: each coalition's replay costs up to 6, v(no fix) alone 6. */
const DEFINITION = `const weights = [3, 1, 1, 1, 1, 1];
export default {
  name: "voters",
  steps: weights.map((w, i) => {
    const input = i === 0 ? "start" : "voter" + (i - 1);
    return { name: "voter" + i, inputs: [input], cost: 1, run: (x) => x[input], fixes: [{ name: "votes", cost: 1, run: (x) => x[input] + w }] };
  }),
  metric: (outputs) => (outputs.voter5 >= 5 ? 1 : 0),
  cases: [{ id: "vote", inputs: { start: 0 } }],
};
`;

/** Opens the voters, then re-runs them with Monte Carlo stopped by a step-cost budget. */
async function openVotersUnderBudget(page: Page, budget: number): Promise<void> {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'voters.pipeline.js', content: DEFINITION, type: 'text/javascript' }]);
  await waitForDone(page);
  await page.getByLabel('Shapley values').selectOption('mc');
  await page.getByLabel('Stop when').selectOption('budget');
  await page.getByLabel('Step-cost budget per case').fill(String(budget));
  await page.getByLabel('Step-cost budget per case').press('Tab');
  await waitForDone(page);
}

test('a Monte Carlo budget spent before the baselines: the case and the batch say they were not computed within it', async ({ page }) => {
  await openVotersUnderBudget(page, 1);
  await expect(page.getByTestId('batch-table').locator('caption')).toContainText('fixing alone not computed within the budget');
  await expect(page.getByTestId('batch-table').locator('tr[data-step=voter0] td').nth(2)).toHaveText('—');
  // The chart's baselines panel draws no fix-alone bar (a 0 would read as measured): it says so.
  await page.getByLabel('Show baselines beside Shapley').check();
  const chart = page.getByTestId('batch-bars');
  await expect(chart.locator('.bar.touch')).toHaveCount(6);
  await expect(chart.locator('.bar.alone')).toHaveCount(0);
  await expect(chart.locator('.not-computed')).toHaveCount(6);
  await expect(chart.locator('.not-computed').first()).toContainText('fix alone: not computed');
  await chart.screenshot({ path: '/tmp/polish-budget-bars.png' });
  await page.getByRole('tab', { name: /Cases/ }).click();
  await page.locator('[data-testid=case-list] tr[data-case=vote]').getByRole('button', { name: 'vote' }).click();
  await expect(page.getByTestId('case-not-computed')).toContainText('fix-alone, leave-one-out');
  const row = page.getByTestId('case-steps').locator('tr[data-step=voter0] td');
  // Shapley, interval, then the two baselines: a dash each, titled with the reason.
  await expect(row.nth(2)).toHaveText('—');
  await expect(row.nth(3)).toHaveAttribute('title', 'not computed within the budget');

  // Interactions the budget stops are bounded from the coalitions it left known, and read by their bounds.
  await page.getByRole('button', { name: '← All cases' }).click();
  await page.locator('#setting-interactions').check();
  await waitForDone(page);
  await page.locator('[data-testid=case-list] tr[data-case=vote]').getByRole('button', { name: 'vote' }).click();
  const table = page.getByTestId('case-interactions');
  await expect(table.locator('caption')).toContainText('the budget stopped them, so each is bounded from the coalitions it left known');
  await expect(table.locator('thead')).toHaveText(/Steps\s*Reading\s*Bounds/);
  await expect(table.locator('tbody tr')).toHaveCount(15);
  await expect(table.locator('tbody tr').first()).toContainText(/\[[−-]?\d\.\d{3}, [−-]?\d\.\d{3}\]/);
  await table.screenshot({ path: '/tmp/polish-bounded-interactions.png' });
});

test('a budget that leaves a sampled value outside its own interval: the case names it, as the command does', async ({ page }) => {
  await openVotersUnderBudget(page, 16);
  await page.getByRole('tab', { name: /Cases/ }).click();
  await page.locator('[data-testid=case-list] tr[data-case=vote]').getByRole('button', { name: 'vote' }).click();
  // The command prints "outside its interval: voter3 -1.736 [-1.000, +1.000]" for the same study.
  await expect(page.getByTestId('case-steps').locator('tr[data-step=voter3] td').first()).toHaveText('−1.736');
  await expect(page.getByTestId('case-outside-interval')).toContainText('Outside its interval: voter3 −1.736 [−1.000, 1.000]');
  await expect(page.getByTestId('case-outside-interval')).toContainText('a larger Monte Carlo budget narrows both');
});
