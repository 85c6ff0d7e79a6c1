import { type Browser, expect, test } from '@playwright/test';
import { REFUND_FIXES, refundSession } from '../src/report/fixtures/refundSession.ts';
import { renderReport, reportFileName } from '../src/report/index.ts';
import { launchChromium, openOffline, saveReport } from './report-helpers.ts';

let browser: Browser;
let url: string;

test.beforeAll(async () => {
  browser = await launchChromium();
  const session = refundSession();
  url = saveReport(renderReport(session, { fixes: REFUND_FIXES }), reportFileName(session.name));
});
test.afterAll(async () => {
  await browser.close();
});

test('the exported refund report reads completely from disk with JavaScript off and no network', async () => {
  const { context, page, requests, problems } = await openOffline(browser, url, { javaScriptEnabled: false });
  expect(url).toMatch(/\/refund-policy\.agentblame\.html$/);
  await expect(page).toHaveTitle('refund-policy · agentblame report');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('refund-policy');
  await expect(page.getByText('Blame is relative to these fixes.')).toBeVisible();

  const batchRows = page.locator('#batch table tbody tr');
  await expect(batchRows).toHaveCount(4);
  await expect(batchRows.nth(0)).toContainText('+0.417');
  await expect(batchRows.nth(1)).toContainText('+0.417');
  await expect(batchRows.nth(2)).toContainText('+0.083');
  await expect(page.locator('#batch svg.chart').first()).toBeVisible();
  await expect(page.locator('#baselines table tbody tr').filter({ hasText: 'planner' })).toContainText('+1.000');

  // The drill-down: the most-blamed case is open, with Shapley beside the baselines, coalitions and outputs.
  const drill = page.locator('details#case-0');
  await expect(drill).toHaveAttribute('open', '');
  const blame = drill.locator('#case-0-blame tbody tr');
  await expect(blame.filter({ hasText: 'planner' })).toContainText('+0.417');
  await expect(blame.filter({ hasText: 'retriever' })).toContainText('+0.417');
  await expect(blame.filter({ hasText: 'reviewer' })).toContainText('last touch');
  await expect(drill.getByRole('cell', { name: 'writer, reviewer', exact: true })).toBeVisible();
  await expect(drill.getByText('Refunds are accepted within 30 days [policy-2026].')).toBeVisible();

  // Native <details> needs no script: collapse and reopen.
  await drill.locator('summary').click();
  await expect(drill.getByText('Refunds are accepted within 30 days [policy-2026].')).toBeHidden();
  await drill.locator('summary').click();
  await expect(drill.getByText('Refunds are accepted within 30 days [policy-2026].')).toBeVisible();

  // The hashed stylesheet applied (system font, not the default serif), and the script did not run.
  expect(await page.locator('body').evaluate((body) => getComputedStyle(body).fontFamily)).toContain('system-ui');
  await expect(page.locator('.case-tools')).toHaveCount(0);
  expect(requests).toEqual([]);
  expect(problems).toEqual([]);
  await context.close();
});

test('with JavaScript on, the hashed script runs under the CSP: sorting and filtering work', async () => {
  const { context, page, requests, problems } = await openOffline(browser, url, { javaScriptEnabled: true });
  const firstStep = () => page.locator('#batch table tbody tr td:first-child').first();
  await expect(firstStep()).toHaveText('planner');
  const header = page.locator('#batch thead th').filter({ hasText: 'Mean Shapley' }).getByRole('button');
  await header.click();
  await expect(page.locator('#batch thead th').nth(1)).toHaveAttribute('aria-sort', 'descending');
  await header.click();
  await expect(page.locator('#batch thead th').nth(1)).toHaveAttribute('aria-sort', 'ascending');
  await expect(firstStep()).toHaveText(/writer|reviewer/);

  const filter = page.getByRole('searchbox', { name: 'Filter cases' });
  await filter.fill('no such case');
  await expect(page.locator('details#case-0')).toBeHidden();
  await expect(page.getByText('0 of 1 shown')).toBeVisible();
  await filter.fill('refund-q1');
  await expect(page.locator('details#case-0')).toBeVisible();
  expect(requests).toEqual([]);
  expect(problems).toEqual([]);
  await context.close();
});

test('follows the dark colour scheme', async () => {
  const background = async (colorScheme: 'light' | 'dark') => {
    const { context, page, problems } = await openOffline(browser, url, { javaScriptEnabled: true, colorScheme });
    const colour = await page.locator('html').evaluate((html) => getComputedStyle(html).backgroundColor);
    expect(problems).toEqual([]);
    await context.close();
    return colour;
  };
  expect(await background('light')).toBe('rgb(255, 255, 255)');
  expect(await background('dark')).toBe('rgb(21, 24, 28)');
});
