import { expect, test, type Page } from '@playwright/test';
import { demoFile, dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

/** Records CSP violations reported on the page (by the browser, before any script can hide them). */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test('the built page carries a strict CSP, breaks none of it, and requests nothing from another origin', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) foreign.push(request.url());
  });
  const violations = await watchCsp(page);
  await page.goto('./');
  const csp = await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content');
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  await page.getByRole('button', { name: /Stochastic RAG/ }).click();
  await waitForDone(page);
  await page.getByRole('tab', { name: /Cases/ }).click();
  await page.locator('[data-testid=case-list] tbody tr').first().getByRole('button').click();
  await expect(page.getByTestId('coalition-table')).toBeVisible();
  await page.getByRole('tab', { name: 'Definition' }).click();
  await expect(page.locator('[data-testid=definition-source] .cm-content')).toContainText('rewrite');
  // A Monte Carlo case draws its convergence chart. Four steps cost less than a round of interval
  // updates, so sampling would go exact at once; under a budget it samples orders instead (it never
  // asks for every coalition left at once) until it has seen them all.
  await page.getByLabel('Shapley values').selectOption('mc');
  await page.getByLabel('Step-cost budget per case').fill('100000');
  await page.getByLabel('Step-cost budget per case').press('Tab');
  await waitForDone(page, 80_000);
  await page.getByRole('tab', { name: /Cases/ }).click();
  await page.locator('[data-testid=case-list] tbody tr').first().getByRole('button').click();
  await expect(page.getByLabel(/Monte Carlo estimates/)).toBeVisible();
  expect(violations).toEqual([]);
  expect(foreign).toEqual([]);
});

test('the build works from a sub-path', async ({ page, baseURL }) => {
  // Serve the build under /some/deep/path/ by mapping it onto the preview server's root.
  const root = new URL(baseURL!);
  await page.route(/\/some\/deep\/path\//, async (route) => {
    const url = new URL(route.request().url());
    url.pathname = url.pathname.replace('/some/deep/path/', '/');
    const response = await route.fetch({ url: url.href });
    await route.fulfill({ response });
  });
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(response.url());
  });
  await page.goto(new URL('some/deep/path/', root).href);
  await page.getByRole('button', { name: /^Refund policy Four steps/ }).click();
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  expect(failed).toEqual([]);
});

test('once loaded, the workbench works offline', async ({ page, context }) => {
  await page.goto('./');
  // Wait for the service worker to take control, then load every lazy part once.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page);
  await page.getByRole('tab', { name: 'Definition' }).click();
  await expect(page.locator('[data-testid=definition-source] .cm-content')).toBeVisible();

  await context.setOffline(true);
  await page.goto('./'); // a new visit of the start page (a reload now reopens the open study's view)
  await expect(page.getByTestId('privacy-note')).toBeVisible();
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  await page.getByRole('tab', { name: 'Definition' }).click();
  await expect(page.locator('[data-testid=definition-source] .cm-content')).toContainText('refund');
  await context.setOffline(false);
});
