import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';
import { SHIPPED_MODEL_SHAPLEY } from '../bench/real-model/shipped-model-values.ts';

/**
 * The in-page model (Settings > Model, "Use a model file in this browser"): with no server at all,
 * the model demos run on the shipped tiny model (stories260K) in the page.
 *
 * The expected Shapley values are those the command gives on the same file with node-llama-cpp:
 *   npm run --silent blame -- public/demos/order-desk.pipeline.js --model-file public/models/stories260K.gguf --json
 * (extract 0.25, route 0, reply 0.25; support-triage: 0 for every step, its metric never holds on a
 * model that follows no instructions; bench/real-model/shipped-model-values.ts). `npm run test:real-model`
 * (bench/real-model/model-file.real.ts) runs that command and checks it still gives them: it installs
 * node-llama-cpp (730 MB) outside the project, so it is not part of `npm test`.
 */
const shown = (values: Readonly<Record<string, number>>) => Object.fromEntries(Object.entries(values).map(([step, v]) => [step, v.toFixed(3)]));
const ORDER_DESK = shown(SHIPPED_MODEL_SHAPLEY['order-desk']);
const TRIAGE = shown(SHIPPED_MODEL_SHAPLEY['support-triage']);

async function useShippedModel(page: Page): Promise<void> {
  // The Settings drawer may be closed on a narrow page; the Model panel shows for model demos.
  await page.getByTestId('use-shipped-model').click();
  await expect(page.getByLabel('Model id')).toHaveValue(/^gguf-sha256:270cba1b/);
}

async function expectShapley(page: Page, values: Record<string, string>): Promise<void> {
  for (const [step, value] of Object.entries(values)) await expect(meanShapley(page, step)).toHaveText(new RegExp(`^\\s*${value.replace('.', '\\.')}`));
}

test('the order-desk demo runs on the shipped model in the page, as the command runs it, and a rerun is answered by the cache', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(new URL(baseURL!).origin)) outside.push(r.url());
  });
  // The page's policy allows what the model needs ('wasm-unsafe-eval', its blob: worker) and nothing is refused.
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
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
  expect(refused).toEqual([]);

  // Re-run the same study (the definition edited by a comment only): every answer comes from this browser's response store.
  await page.getByRole('tab', { name: /^Definition/ }).click();
  await page.locator('[data-testid=definition-source] .cm-content').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText('\n// the same study again\n');
  await page.getByTestId('definition-run').click();
  await page.getByRole('tab', { name: 'Batch' }).click();
  await waitForDone(page);
  await expect(page.getByTestId('model-activity')).toContainText('Model: 0 requests sent · 30 answered from the cache');
  await expectShapley(page, ORDER_DESK);
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

test("the first page fetches neither the in-page model's library nor its wasm", async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (r) => void fetched.push(new URL(r.url()).pathname));
  await page.goto('./');
  await page.getByRole('button', { name: /Order desk/ }).click();
  await waitForDone(page);
  await expect(page.getByTestId('use-shipped-model')).toBeVisible();
  expect(fetched.filter((path) => /wllama|\.wasm$|\.gguf$/.test(path))).toEqual([]);
});

test('a .gguf dropped on the Model panel is kept and used, not opened as a trace', async ({ page }) => {
  const whole = readFileSync(new URL('../public/models/stories260K.gguf', import.meta.url));
  await page.goto('./');
  await page.getByRole('button', { name: /Order desk/ }).click();
  await waitForDone(page);
  const dataTransfer = await page.evaluateHandle((bytes) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(bytes)], 'dropped.gguf'));
    return transfer;
  }, [...whole]);
  await page.getByTestId('in-page-model').dispatchEvent('dragenter', { dataTransfer });
  await page.getByTestId('in-page-model').dispatchEvent('drop', { dataTransfer });
  await expect(page.getByLabel('Model id')).toHaveValue(/^gguf-sha256:270cba1b/);
  await expect(page.getByRole('list', { name: 'Model files kept in this browser' })).toContainText('dropped.gguf');
  await expect(page.getByText('Drop to open')).toBeHidden();
  await expect(page.getByRole('alert')).toHaveCount(0);
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
  await expect(page.getByRole('list', { name: 'Model files kept in this browser' })).toHaveCount(0);
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

test("the README's replay example runs on the shipped model in the page, with no server", async ({ page }) => {
  test.setTimeout(240_000);
  const example = (name: string) => readFileSync(new URL(`../docs/examples/replay/${name}`, import.meta.url), 'utf8');
  await page.goto('./');
  await dropFiles(page, [{ name: 'multiply.langfuse.json', content: example('multiply.langfuse.json'), type: 'application/json' }]);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  await setup.getByLabel('Tool stubs').setInputFiles({ name: 'tools.js', mimeType: 'text/javascript', buffer: Buffer.from(example('tools.js')) });
  await setup.getByLabel('The final answer contains').fill('42');
  await useShippedModel(page);
  await setup.getByRole('button', { name: 'Blame', exact: true }).click();
  await waitForDone(page, 200_000);
  await expect(page.getByTestId('model-activity')).toContainText(/Model: [1-9]\d* requests? sent/);
  await expect(page.getByText(/could not be analysed/)).toHaveCount(0);
  await page.getByRole('tab', { name: 'Replay' }).click();
  // The tiny model follows no instructions: the replay runs on it, whatever credit it gives.
  await expect(page.getByRole('region', { name: 'Replay' }).locator('ol.players > li').first().getByTestId('replay-shapley')).toHaveText(/^-?\d\.\d{3}$/);
});
