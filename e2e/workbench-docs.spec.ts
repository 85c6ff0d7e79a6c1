/**
 * The help overlay links to the project's docs, shipped in the build as static pages: each link
 * opens its page (styled, no console errors), links between the docs and their anchors work, and
 * the way back leads to the workbench.
 */
import { expect, test } from '@playwright/test';

test('the ? help links to the docs, which open offline from the build and link to each other', async ({ page, context }) => {
  await page.goto('./');
  await page.keyboard.press('?');
  const links = page.getByTestId('help-docs').getByRole('link');
  await expect(links.first()).toBeVisible();
  const hrefs = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  expect(hrefs.length).toBeGreaterThanOrEqual(5);
  for (const href of hrefs) {
    const response = await page.request.get(href);
    expect(response.status(), href).toBe(200);
    expect(await response.text(), href).toContain('<main>');
  }

  const opened = context.waitForEvent('page');
  await page.getByTestId('help-docs').getByRole('link', { name: 'Method' }).click();
  const doc = await opened;
  const problems: string[] = [];
  doc.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  doc.on('response', (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
  await doc.waitForLoadState();
  await expect(doc.getByRole('heading', { level: 1 })).toHaveText('Method');
  // The stylesheet loaded under the pages' CSP: the text column is narrowed.
  expect(await doc.locator('main').evaluate((m) => getComputedStyle(m).maxWidth)).not.toBe('none');
  // An anchor inside the page and a link to another doc's anchor.
  await doc.getByRole('link', { name: 'noise and replay' }).first().click();
  await expect(doc).toHaveURL(/method\.html#noise-and-replay$/);
  await doc.getByRole('link', { name: 'estimators.md' }).first().click();
  await expect(doc).toHaveURL(/docs\/estimators\.html/);
  await expect(doc.getByRole('heading', { level: 1 })).toBeVisible();
  await doc.getByRole('link', { name: 'All docs' }).click();
  await expect(doc.getByRole('heading', { level: 1 })).toHaveText('Documentation');
  await expect(doc.getByRole('link', { name: /Shapley estimators/ })).toBeVisible();
  await doc.getByRole('link', { name: 'Workbench', exact: true }).click();
  await expect(doc.getByRole('button', { name: /Eight-step agent/ })).toBeVisible();
  expect(problems).toEqual([]);
});
