import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { meanShapley, waitForDone } from './workbench-helpers.ts';

/**
 * The in-page model (Settings > Model, "Use a model file in this browser"): with no server at all,
 * the model demos run on the shipped tiny model (stories260K) in the page.
 *
 * The expected Shapley values are those the command gives on the same file with node-llama-cpp:
 *   npm run --silent blame -- public/demos/order-desk.pipeline.js --model-file public/models/stories260K.gguf --json
 * (extract 0.25, route 0, reply 0.25; support-triage: 0 for every step, its metric never holds on a
 * model that follows no instructions). bench/real-model/model-file.real.ts runs that command and
 * checks it still gives them, where node-llama-cpp is installed (it is 730 MB: not in `npm test`).
 */
const ORDER_DESK = { extract: '0.250', route: '0.000', reply: '0.250' };
const TRIAGE = { classify: '0.000', lookup: '0.000', draft: '0.000', review: '0.000' };

async function useShippedModel(page: Page): Promise<void> {
  // The Settings drawer may be closed on a narrow page; the Model panel shows for model demos.
  await page.getByTestId('use-shipped-model').click();
  await expect(page.getByLabel('Model id')).toHaveValue(/^gguf-sha256:270cba1b/);
}

async function expectShapley(page: Page, values: Record<string, string>): Promise<void> {
  for (const [step, value] of Object.entries(values)) await expect(meanShapley(page, step)).toHaveText(new RegExp(`^\\s*${value.replace('.', '\\.')}`));
}

test('the order-desk demo runs on the shipped model in the page, as the command runs it, and a rerun is answered by the cache', async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(new URL(baseURL!).origin)) outside.push(r.url());
  });
  await page.goto('./');
  await page.getByRole('button', { name: /Order desk/ }).click();
  await waitForDone(page);
  await useShippedModel(page);
  await expect(page.getByTestId('model-activity')).toContainText(/Model: [1-9]\d* requests? sent/, { timeout: 60_000 });
  await waitForDone(page, 120_000);
  await expect(page.getByTestId('in-page-model-status')).toContainText('stories260K.gguf is loaded in this page');
  await expect(page.getByTestId('model-activity')).toContainText('Model: 30 requests sent');
  await expect(page.getByText(/could not be analysed/)).toHaveCount(0);
  await expectShapley(page, ORDER_DESK);
  expect(outside.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);

  // Another tab of the same browser: the kept file is listed, and every answer comes from the response store.
  const again = await context.newPage();
  await again.goto('./');
  await again.getByRole('button', { name: /Order desk/ }).click();
  await waitForDone(again);
  await expect(again.getByTestId('in-page-model')).toContainText('stories260K.gguf');
  await again.getByTestId('in-page-model').getByRole('button', { name: 'Use', exact: true }).click();
  await expect(again.getByTestId('model-activity')).toContainText('30 answered from the cache', { timeout: 60_000 });
  await waitForDone(again);
  await expect(again.getByTestId('model-activity')).toContainText('Model: 0 requests sent');
  await expectShapley(again, ORDER_DESK);
});

test('the support-triage demo runs on the shipped model in the page, as the command runs it', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('./');
  await page.getByRole('button', { name: /Support triage/ }).click();
  await waitForDone(page);
  await useShippedModel(page);
  await expect(page.getByTestId('model-activity')).toContainText(/Model: [1-9]\d* requests? sent/, { timeout: 60_000 });
  await waitForDone(page, 200_000);
  await expect(page.getByTestId('model-activity')).toContainText(/Model: 7\d requests sent/);
  await expect(page.getByText(/could not be analysed/)).toHaveCount(0);
  await expectShapley(page, TRIAGE);
});

test('a truncated GGUF file is refused with a clear error before it is kept or loaded', async ({ page }) => {
  const whole = readFileSync(new URL('../public/models/stories260K.gguf', import.meta.url));
  await page.goto('./');
  await page.getByRole('button', { name: /Order desk/ }).click();
  await waitForDone(page);
  const modelId = await page.getByLabel('Model id').inputValue();
  await page.getByTestId('model-file-input').setInputFiles({ name: 'cut.gguf', mimeType: 'application/octet-stream', buffer: whole.subarray(0, 300_000) });
  const status = page.getByTestId('in-page-model-status');
  await expect(status).toHaveAttribute('class', /error/);
  await expect(status).toHaveText(`cut.gguf is truncated: its header describes ${whole.length} bytes, the file has 300000 (download or copy it again)`);
  // Nothing kept, and the study's model left as it was.
  await expect(page.getByTestId('in-page-model')).not.toContainText('cut.gguf ');
  await expect(page.getByLabel('Model id')).toHaveValue(modelId);
});

test('a page policy that refuses WebAssembly gives a clear error within the load time limit', async ({ page }) => {
  test.setTimeout(120_000);
  // The built page with 'wasm-unsafe-eval' taken out of its policy, as a host with a stricter header would serve it.
  await page.route(/\/(\?.*)?$/, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(" 'wasm-unsafe-eval'", '');
    await route.fulfill({ response, body: html });
  });
  await page.goto('./?model-load-timeout=10');
  await page.getByRole('button', { name: /Order desk/ }).click();
  await waitForDone(page);
  await useShippedModel(page);
  const status = page.getByTestId('in-page-model-status');
  await expect(status).toHaveAttribute('class', /error/, { timeout: 30_000 });
  await expect(status).toContainText("'wasm-unsafe-eval'");
});
