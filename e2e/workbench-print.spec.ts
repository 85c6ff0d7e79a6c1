/**
 * The print stylesheet prints the results, not the form: no settings, tabs, buttons or file
 * picker on paper, while the headline, chart and table of the shown view stay.
 */
import { expect, test } from '@playwright/test';
import { waitForDone } from './workbench-helpers.ts';

test('printing shows the results and hides the settings, tabs and buttons', async ({ page }) => {
  await page.goto('./#demo=stochastic-rag');
  await waitForDone(page);
  await expect(page.getByRole('complementary', { name: 'Settings' })).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('complementary', { name: 'Settings' })).toBeHidden();
  await expect(page.getByRole('tablist', { name: 'Views' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Export report' })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Workbench actions' })).toBeHidden();
  await expect(page.getByTestId('batch-headline')).toBeVisible();
  await expect(page.getByTestId('batch-bars')).toBeVisible();
  await expect(page.getByTestId('batch-table')).toBeVisible();
  // The results use the page's width on paper (the settings column is gone, not left empty).
  const results = await page.getByRole('region', { name: 'Results' }).boundingBox();
  const viewport = page.viewportSize()!;
  expect(results!.width).toBeGreaterThan(viewport.width * 0.8);
  // Paper is white with black text, whatever the screen's colour scheme.
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  const colours = await page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector('[data-testid=batch-headline]')!).color]);
  expect(colours).toEqual(['rgb(255, 255, 255)', 'rgb(0, 0, 0)']);
});

test('on paper: no progress bar and no stray "/", and the page names the mode and the method', async ({ page }) => {
  await page.goto('./#demo=refund-policy&mode=prior&worlds=4');
  await waitForDone(page);
  const printed = page.getByTestId('printed-settings');
  await expect(printed).toBeHidden();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('run-progress')).toBeHidden();
  // The header keeps the session's name, without the separator left from the hidden home button.
  await expect(page.getByLabel('Session name')).toBeVisible();
  expect(await page.locator('header').first().innerText()).not.toContain('/');
  await expect(printed).toBeVisible();
  await expect(printed).toContainText('Mode: prior: fresh noise', { useInnerText: true });
  await expect(printed).toContainText('Method: exact Shapley over every coalition (chosen by auto)', { useInnerText: true });
});
