import { expect, test } from '@playwright/test';
import { demoFile, dropFiles } from './workbench-helpers.ts';

test('a 10 000-case trace imports off the main thread and its analysis can be cancelled', async ({ page }) => {
  const demo = JSON.parse(demoFile('refund-policy.trace.json').content);
  const template = demo.cases[0];
  const cases = Array.from({ length: 10_000 }, (_, i) => ({ ...template, id: `q${i}`, seed: i + 1 }));
  const content = JSON.stringify({ ...demo, cases });
  await page.goto('./');
  await dropFiles(page, [{ name: 'big.trace.json', content }]);
  await expect(page.getByRole('tab', { name: 'Cases (10000)' })).toBeVisible({ timeout: 60_000 });
  const progress = page.getByTestId('run-progress');
  await expect(progress).toContainText(/of 10\u2009000 cases/);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveAttribute('data-status', 'cancelled');
  // The case list renders a page of rows at a time, not ten thousand.
  await page.getByRole('tab', { name: /Cases/ }).click();
  await expect(page.getByTestId('case-list').locator('tbody tr')).toHaveCount(100);
  await expect(page.getByRole('button', { name: 'Show 100 more' })).toBeVisible();
});

test('the open study is autosaved to IndexedDB with its results', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: /^Refund policy Four steps/ }).click();
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-status', 'done');
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            new Promise<unknown>((resolve, reject) => {
              const open = indexedDB.open('agentblame');
              open.onerror = () => reject(open.error);
              open.onsuccess = () => {
                const request = open.result.transaction('summaries').objectStore('summaries').getAll();
                request.onsuccess = () => resolve((request.result as { name: string; status: string; casesAnalysed: number }[]).map((s) => [s.name, s.status, s.casesAnalysed]));
              };
            }),
        ),
      { timeout: 10_000 },
    )
    .toContainEqual(['refund-policy', 'done', 1]);
});
