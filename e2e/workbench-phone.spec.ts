/**
 * Phone, dark mode and accessibility: at 390 px no view scrolls sideways and the results come
 * before the settings; every view passes the page audit (names, labels, contrast) in light and dark.
 */
import { expect, test } from '@playwright/test';
import { auditPage } from './a11y-check.ts';
import { waitForStored } from './fixtures.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';
import { readFileSync } from 'node:fs';

const VIEWS = [/^Batch/, /^Cases/, /^Case /, /^Definition/, /^Compare/];

test('a 390 px phone: no horizontal scroll on any view, results before settings', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('./#demo=eight-step-agent');
  await waitForDone(page, 120_000);
  const settings = page.getByRole('complementary', { name: 'Settings' });
  const results = page.getByRole('region', { name: 'Results' });
  expect((await results.boundingBox())!.y).toBeLessThan((await settings.boundingBox())!.y);
  await page.getByRole('tab', { name: /^Cases/ }).click();
  await page.locator('[data-testid=case-list] tbody tr').first().getByRole('button').click();
  for (const name of VIEWS) {
    await page.getByRole('tab', { name }).click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `view ${name}`).toBeLessThanOrEqual(390);
  }
});

test('a 390 px phone: the Compare view with a stored study to pick (its long name in the pickers) does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./#demo=refund-policy');
  await waitForDone(page);
  await page.getByRole('tab', { name: /^Compare/ }).click();
  await page.getByRole('button', { name: 'Keep a copy to compare with' }).click();
  await expect(page.getByTestId('compare-select').locator('option')).toHaveCount(2);
  await expect(page.getByTestId('compare-select')).not.toHaveValue('');
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const select = (await page.getByTestId('compare-select').boundingBox())!;
  expect(select.x + select.width).toBeLessThanOrEqual(390);
});

test('a 390 px phone: the batch bars fit the screen, every bar and its value in view without a sideways scroll, text at full size', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./#demo=eight-step-agent');
  await waitForDone(page, 120_000);
  const figure = page.locator('figure.bars');
  const fit = await figure.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(fit.scroll).toBeLessThanOrEqual(fit.client);
  // The largest bar's value (the headline's number) is on screen, drawn at 1:1 (its font not shrunk).
  const value = page.getByTestId('bar-value').first();
  await expect(value).toHaveText('+0.442');
  const box = (await value.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  const svg = await page.getByTestId('batch-bars').evaluate((el) => ({ shown: el.getBoundingClientRect().width, drawn: (el as SVGSVGElement).viewBox.baseVal.width }));
  expect(Math.abs(svg.shown - svg.drawn)).toBeLessThan(2);
  // The Settings drawer below the results shows an arrow that says it opens (it showed a dot).
  const marker = await page.getByRole('complementary', { name: 'Settings' }).locator('summary').evaluate((el) => getComputedStyle(el, '::before').content);
  expect(marker).toBe('"▸ "');
  // With the baselines beside it the chart needs more than a phone's width: it scrolls inside itself, never the page.
  await page.getByLabel('Show baselines beside Shapley').check();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`every view passes the audit in ${scheme} mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('./');
    expect(await auditPage(page), 'start page').toEqual([]);
    // Two studies, so the Compare view has a comparison to show.
    await page.goto('./#demo=refund-policy-b');
    await waitForDone(page);
    const other = (await waitForStored(page, (s) => s.status === 'done')).id;
    await page.goto('about:blank');
    await page.goto('./#demo=refund-policy');
    await waitForDone(page);
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByTestId('compare-select').selectOption(other);
    await expect(page.getByTestId('compare-table')).toBeVisible();
    await page.getByRole('tab', { name: /^Cases/ }).click();
    await page.locator('[data-testid=case-list] tbody tr').first().getByRole('button').click();
    for (const name of VIEWS) {
      await page.getByRole('tab', { name }).click();
      await page.waitForTimeout(300);
      expect(await auditPage(page), `view ${name} (${scheme})`).toEqual([]);
    }
  });
}

test('a 390x844 phone: the header and the tabs take at most a quarter of the first screen, every action in view', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./#demo=eight-step-agent');
  await waitForDone(page, 120_000);
  const header = (await page.locator('header').first().boundingBox())!;
  const tabs = (await page.getByRole('tablist', { name: 'Views' }).boundingBox())!;
  expect(header.height + tabs.height).toBeLessThanOrEqual(844 / 4);
  // The results start on the first screen.
  expect((await page.getByTestId('batch-headline').boundingBox())!.y).toBeLessThan(844 / 2);
  // Nothing of the header's actions or the tabs is pushed out of sight.
  for (const item of await page.locator('header nav .button, [role=tablist] [role=tab]').all()) {
    const box = (await item.boundingBox())!;
    expect(box.x, await item.innerText()).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, await item.innerText()).toBeLessThanOrEqual(390);
  }
});

test('a 390 px phone: the run view of an opened trace does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('./');
  const trace = readFileSync(new URL('../src/cli/fixtures/why-inbox.runtape.jsonl', import.meta.url), 'utf8');
  await dropFiles(page, [{ name: 'inbox.jsonl', content: trace, type: 'application/json' }]);
  await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
