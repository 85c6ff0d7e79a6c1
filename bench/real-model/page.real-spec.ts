import { expect, test } from '@playwright/test';
import { meanShapley, waitForDone } from '../../e2e/workbench-helpers.ts';
import { modelPath, moduleDir } from './install.ts';
import { startRealEndpoint } from './llama-endpoint.ts';

// The page's Model panel against a real model: the order-desk demo re-analysed by stories260K
// through a one-slot loopback server; every request sent once, the same values as the command.
test('the page analyses the order-desk demo against the real model, each request once', async ({ page }) => {
  const endpoint = await startRealEndpoint(moduleDir(), modelPath());
  try {
    await page.goto('./');
    await page.getByRole('button', { name: /Order desk/ }).click();
    await waitForDone(page);
    await page.getByLabel('Requests at once').fill('1');
    await page.getByLabel('Requests at once').dispatchEvent('change');
    await page.getByLabel('Time per request (s)').fill('120');
    await page.getByLabel('Time per request (s)').dispatchEvent('change');
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await page.getByLabel('Model id').fill(endpoint.modelId);
    await page.getByLabel('Model id').dispatchEvent('change');
    await expect.poll(() => endpoint.answered, { timeout: 120_000 }).toBeGreaterThan(0);
    await waitForDone(page, 300_000);
    await expect(page.getByTestId('model-activity')).toContainText(`Model: ${endpoint.answered} requests sent`);
    await expect(meanShapley(page, 'extract')).toHaveText(/0\.250/);
    await expect(meanShapley(page, 'reply')).toHaveText(/0\.250/);
  } finally {
    await endpoint.close();
  }
});
