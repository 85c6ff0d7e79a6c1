/**
 * Links and navigation: the address names the study and view, so a link reopens it in a fresh tab,
 * Back and Forward move between views inside the app, the title names study and view, and the case
 * list keeps its filter, sort and scroll across a visit to a case, with previous/next case.
 */
import { expect, test } from '@playwright/test';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

test('a case link opened in a fresh tab shows that case; Back and Forward stay in the app', async ({ page, context }) => {
  await page.goto('./');
  await page.getByRole('button', { name: /Eight-step agent/ }).click();
  await waitForDone(page, 120_000);
  await expect(page).toHaveTitle(/Batch · agentblame$/);
  await page.getByRole('tab', { name: /^Cases/ }).click();
  await expect(page).toHaveURL(/view=cases/);
  const firstCase = page.locator('[data-testid=case-list] tbody tr').first();
  const caseId = await firstCase.getAttribute('data-case');
  await firstCase.getByRole('button').click();
  await expect(page.getByTestId('case-detail')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`case=${caseId}`));
  await expect(page).toHaveTitle(new RegExp(`Case ${caseId} · agentblame$`));
  // Focus goes to the case's heading.
  await expect(page.getByRole('heading', { name: `Case ${caseId}` })).toBeFocused();

  // Back: the case list, then the batch view; Forward: the list again. Never about:blank.
  await page.goBack();
  await expect(page.getByTestId('case-list')).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('batch-summary')).toBeVisible();
  await page.goForward();
  await expect(page.getByTestId('case-list')).toBeVisible();
  await page.goForward();
  await expect(page.getByTestId('case-detail')).toBeVisible();
  const link = page.url();

  // The same link in a fresh tab of this browser reopens the stored session at that case.
  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh.getByTestId('case-detail')).toBeVisible();
  await expect(fresh.getByRole('heading', { name: `Case ${caseId}` })).toBeVisible();
  await fresh.close();
});

test('a demo link with settings opens in another browser (no stored session) from the demo itself', async ({ page }) => {
  await page.goto('./#demo=refund-policy&session=not-stored-here&view=cases&mode=prior&worlds=4');
  await expect(page.getByTestId('case-list')).toBeVisible();
  await expect(page.getByLabel('Mode', { exact: true })).toHaveValue('prior');
  await expect(page.getByLabel('Worlds', { exact: true })).toHaveValue('4');
  await waitForDone(page);
  // The new session's id replaces the stale one in the address.
  await expect(page).not.toHaveURL(/not-stored-here/);
});

test('the case list keeps filter, sort and scroll; previous/next follow its order; sort goes both ways', async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 600 });
  await page.goto('./#demo=eight-step-agent&view=cases');
  await waitForDone(page, 120_000);
  const list = page.getByTestId('case-list');
  const sortButton = list.getByRole('button', { name: /^Sort by drafter's blame/ });
  await sortButton.click();
  await expect(list.locator('th[aria-sort=descending]')).toHaveCount(1);
  // One sort mark per column, the table's own (▲/▼ from aria-sort): the label carries no second arrow.
  await expect(list.locator('th[aria-sort=descending] button')).toHaveText('drafter');
  await sortButton.click();
  await expect(list.locator('th[aria-sort=ascending]')).toContainText('drafter');
  await expect(page).toHaveURL(/sort=step%3Aasc%3Adrafter/);
  const rows = list.locator('tbody tr');
  await rows.nth(40).scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(300);
  const third = await rows.nth(40).getAttribute('data-case');
  const fourth = await rows.nth(41).getAttribute('data-case');
  const second = await rows.nth(39).getAttribute('data-case');
  await rows.nth(40).getByRole('button').click();
  await expect(page.getByRole('heading', { name: `Case ${third}` })).toBeVisible();
  // A case opens at its top.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.getByRole('button', { name: 'Next case ›' }).click();
  await expect(page.getByRole('heading', { name: `Case ${fourth}` })).toBeVisible();
  await page.getByRole('button', { name: '‹ Previous case' }).click();
  await page.getByRole('button', { name: '‹ Previous case' }).click();
  await expect(page.getByRole('heading', { name: `Case ${second}` })).toBeVisible();
  await page.getByRole('button', { name: '← All cases' }).click();
  await expect(list.locator('th[aria-sort=ascending]')).toContainText('drafter');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 50);
  await expect(list.locator(`tr[data-case="${third}"]`)).toBeInViewport();
});

test('a reload reopens the same study and view; the batch bars are sorted by size with signed colours and values', async ({ page }) => {
  await page.goto('./#demo=eight-step-agent');
  await waitForDone(page, 120_000);
  await expect(page.getByTestId('batch-headline')).toContainText(/^Most blamed: \S+, -?\d\.\d{3} \[/);
  const values = await page.getByTestId('bar-value').allTextContents();
  const numbers = values.map(Number);
  expect(numbers.length).toBeGreaterThan(3);
  for (let i = 1; i < numbers.length; i++) expect(Math.abs(numbers[i - 1])).toBeGreaterThanOrEqual(Math.abs(numbers[i]));
  await expect(page.locator('[data-testid=batch-bars] rect.bar.pos')).toHaveCount(numbers.filter((n) => n > 0).length);
  // In some cases of the eight-step agent a fix makes things worse: the strip plot shows those dots in the negative colour.
  await page.getByLabel('Show every case (strip plot)').check();
  await expect(page.getByTestId('batch-strip')).toBeVisible();
  expect(await page.locator('[data-testid=batch-strip] circle.dot.neg').count()).toBeGreaterThan(0);

  await page.getByRole('tab', { name: /^Cases/ }).click();
  await page.locator('[data-testid=case-list] tbody tr').first().getByRole('button').click();
  await expect(page.getByTestId('case-waterfall')).toBeVisible();
  const url = page.url();
  const entries = await page.evaluate(() => history.length);
  await page.reload();
  expect(page.url()).toBe(url);
  // Reopening writes no entry of its own (a stray start page would be where Back goes).
  expect(await page.evaluate(() => history.length)).toBe(entries);
  await expect(page.getByTestId('case-detail')).toBeVisible();
  await expect(page.getByTestId('case-waterfall')).toBeVisible();
});

test('Back from a second study reopens the first at its view, and Forward returns to the second', async ({ page }) => {
  await page.goto('./#demo=refund-policy');
  await waitForDone(page);
  await page.getByRole('tab', { name: /^Cases/ }).click();
  await expect(page).toHaveURL(/view=cases/);
  const first = page.url();
  // A second study, dropped while the first is open: a new session.
  const content = await page.evaluate(() => fetch('demos/refund-policy-b.trace.json').then((response) => response.text()));
  await dropFiles(page, [{ name: 'refund-policy-b.trace.json', content, type: 'application/json' }]);
  await waitForDone(page);
  await expect(page).not.toHaveURL(first);
  const second = page.url();
  const entries = await page.evaluate(() => history.length);

  await page.goBack();
  await expect(page.getByTestId('case-list')).toBeVisible();
  await expect(page.getByText('refund-policy.trace.json')).toBeVisible();
  // Reopening writes nothing of its own: the address stays the first study's, and Forward still leads on.
  await page.waitForTimeout(500);
  expect(page.url()).toBe(first);
  expect(await page.evaluate(() => history.length)).toBe(entries);
  await page.goForward();
  await expect(page).toHaveURL(second);
  await expect(page.getByText('refund-policy-b.trace.json')).toBeVisible();
});
