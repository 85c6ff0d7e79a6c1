import { expect, test } from '@playwright/test';
import { ESTIMATOR_NAMES } from '../src/engine/shapley/registry.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

/** Fourteen voters in a chain (above the 12 steps of exact Shapley and exact interactions); voter 0 weighs most. */
const VOTERS = 14;
const VOTER_DEFINITION = `const weights = [9, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3];
export default {
  name: "voters",
  steps: weights.map((w, i) => {
    const input = i === 0 ? "start" : "voter" + (i - 1);
    return { name: "voter" + i, inputs: [input], cost: 1, run: (x) => x[input], fixes: [{ name: "votes", cost: 1, run: (x) => x[input] + w }] };
  }),
  metric: (outputs) => (outputs.voter${VOTERS - 1} >= 23 ? 1 : 0),
  cases: [{ id: "vote", inputs: { start: 0 } }],
};
`;

test('every registered estimator is selectable in the settings and runs; sampled interactions show their intervals in the case view', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'voters.pipeline.js', content: VOTER_DEFINITION, type: 'text/javascript' }]);
  await waitForDone(page);
  await page.getByLabel('Shapley values').selectOption('mc');
  const options = await page.locator('#setting-estimator option').evaluateAll((xs) => xs.map((x) => (x as HTMLOptionElement).value));
  expect(options).toEqual(ESTIMATOR_NAMES);
  await page.getByLabel('Stop when').selectOption('budget');
  await page.getByLabel('Permutation cap').fill('200');
  await page.getByLabel('Permutation cap').press('Enter');
  await page.getByLabel(/Pairwise interactions/).check();
  for (const name of ESTIMATOR_NAMES) {
    await page.getByLabel('Estimator').selectOption(name);
    await waitForDone(page);
    await page.getByRole('tab', { name: /Cases/ }).click();
    await page.locator('[data-testid=case-list] tr[data-case=vote]').getByRole('button', { name: 'vote' }).click();
    // The re-run may finish before a 'running' state is polled: wait for this estimator's result.
    await expect(page.getByText(`${name} estimator`)).toBeVisible({ timeout: 60_000 });
    const table = page.getByTestId('case-interactions');
    await expect(table).toContainText('(sampled)');
    await expect(table.locator('thead')).toContainText('Interval');
    await expect(table.locator('tbody tr').first()).toContainText(/\[[−-]?\d\.\d{3}, [−-]?\d\.\d{3}\]/);
    await page.getByRole('button', { name: '← All cases' }).click();
  }
});
