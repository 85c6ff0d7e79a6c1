import { expect, test } from '@playwright/test';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { meanShapley, waitForDone } from './workbench-helpers.ts';

/**
 * Model steps in the page: the support-triage demo analyses from its shipped responses with no
 * model at all, and against the loopback fake endpoint (another model id, so every request is new)
 * each distinct request is sent once and every case gets its result.
 */
test('the support-triage demo analyses from its shipped responses, with no model', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: /Support triage/ }).click();
  await waitForDone(page);
  await expect(meanShapley(page, 'review')).toHaveText(/0\.508/);
  await expect(page.getByText(/could not be analysed/)).toHaveCount(0);
});

test('the demo analysed against a loopback endpoint sends each distinct request once', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['fake-model'] });
  try {
    await page.goto('./');
    await page.getByRole('button', { name: /Support triage/ }).click();
    await waitForDone(page);
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await page.getByLabel('Model id').fill('fake-model');
    await page.getByLabel('Model id').dispatchEvent('change');
    // The settings change re-runs the cases after a short pause: wait for its requests, then its end.
    await expect.poll(() => endpoint.requests.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await waitForDone(page);
    expect(new Set(endpoint.requests.map((r) => JSON.stringify(r))).size).toBe(endpoint.requests.length);
    expect(endpoint.requests.every((r) => r.model === 'fake-model')).toBe(true);
    // The fake endpoint runs the same test model: the numbers are those of the shipped responses.
    await expect(meanShapley(page, 'review')).toHaveText(/0\.508/);
  } finally {
    await endpoint.close();
  }
});
