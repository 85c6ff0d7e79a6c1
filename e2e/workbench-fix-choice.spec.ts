/**
 * Which fix each step uses: the refund demo's retriever has a second, weaker fix
 * ("newest on ties") that never repairs the answer alone. Choosing it makes the retriever a null
 * player: v(S) = 1 iff S holds the planner or both writer and reviewer, so Shapley 2/3, 0, 1/6, 1/6.
 */
import { downloadedText, expect, test } from './fixtures.ts';
import { demoFile, dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

test('choosing another fix for a step changes the blame, and the default fix brings 0.417 back', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page);
  await expect(meanShapley(page, 'retriever')).toHaveText('0.417');

  // A step with one fix shows it; the retriever offers both, the default (first) selected.
  await expect(page.locator('output#fix-planner')).toHaveText('date constraint');
  const retrieverFix = page.getByLabel('retriever', { exact: true });
  await expect(retrieverFix).toHaveValue('drop superseded');
  await expect(retrieverFix.locator('option')).toHaveText(['drop superseded', 'newest on ties']);

  await retrieverFix.selectOption('newest on ties');
  await expect(meanShapley(page, 'planner')).toHaveText('0.667');
  await expect(meanShapley(page, 'retriever')).toHaveText('0.000');
  await expect(meanShapley(page, 'writer')).toHaveText('0.167');
  await expect(meanShapley(page, 'reviewer')).toHaveText('0.167');
  await waitForDone(page);

  // The case drill-down agrees: the weaker fix alone repairs nothing.
  await page.getByRole('tab', { name: /Cases/ }).click();
  await page.getByRole('button', { name: 'refund-q1' }).click();
  const retrieverRow = page.getByTestId('case-steps').locator('tr[data-step=retriever]');
  await expect(retrieverRow.locator('td').nth(1)).toHaveText('0.000');

  // The exported report says which fix the blame is relative to.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export report' }).click();
  const html = await downloadedText(await downloading);
  expect(html).toMatch(/<tr><td>retriever<\/td><td>newest on ties<\/td><\/tr>/);
  expect(html).toContain('+0.667');

  await page.getByRole('tab', { name: 'Batch' }).click();
  await retrieverFix.selectOption('drop superseded');
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  await expect(meanShapley(page, 'retriever')).toHaveText('0.417');
  await expect(meanShapley(page, 'writer')).toHaveText('0.083');
  await expect(meanShapley(page, 'reviewer')).toHaveText('0.083');
});

test('the fix choice is in the address: Back/Forward, a reload and the link in another browser keep it', async ({ page, browser }) => {
  await page.goto('./#demo=refund-policy');
  await waitForDone(page);
  const retrieverFix = page.getByLabel('retriever', { exact: true });
  await retrieverFix.selectOption('newest on ties');
  await expect(page).toHaveURL(/fix\.retriever=newest\+on\+ties/);
  await expect(meanShapley(page, 'retriever')).toHaveText('0.000');
  await waitForDone(page);

  // Another view and back again: the choice stays in the address and the page.
  await page.getByRole('tab', { name: /Cases/ }).click();
  await expect(page).toHaveURL(/view=cases/);
  await expect(page).toHaveURL(/fix\.retriever=newest\+on\+ties/);
  await page.goBack();
  await expect(page.getByTestId('batch-table')).toBeVisible();
  await expect(page).toHaveURL(/fix\.retriever=newest\+on\+ties/);
  await expect(retrieverFix).toHaveValue('newest on ties');
  await page.goForward();
  await expect(page.getByTestId('case-list')).toBeVisible();
  await page.goBack();

  // A reload reopens it with the same fix.
  await page.reload();
  await waitForDone(page);
  await expect(retrieverFix).toHaveValue('newest on ties');
  await expect(meanShapley(page, 'retriever')).toHaveText('0.000');

  // The link in a browser that has not stored this session opens the demo with the same fix.
  const link = page.url();
  const other = await browser.newContext();
  try {
    const fresh = await other.newPage();
    await fresh.goto(link);
    await waitForDone(fresh);
    await expect(fresh.getByLabel('retriever', { exact: true })).toHaveValue('newest on ties');
    await expect(meanShapley(fresh, 'retriever')).toHaveText('0.000');
    await expect(meanShapley(fresh, 'planner')).toHaveText('0.667');
  } finally {
    await other.close();
  }
});
