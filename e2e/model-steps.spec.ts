import { expect, test } from '@playwright/test';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';
import { downloadedText } from './fixtures.ts';

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
    // The request log lists each request the analysis sent, named by the step that asked.
    const log = page.getByTestId('request-log');
    await log.getByText(/^Request log/).click();
    await log.getByLabel('Status').selectOption('sent');
    await expect(log.locator('tbody tr')).toHaveCount(endpoint.requests.length);
    const steps = await log.getByLabel('Turn or step').locator('option').allInnerTexts();
    expect(steps).toContain('review');
  } finally {
    await endpoint.close();
  }
});

test('a large run pauses before sending, saying what the cache answered; the exported session re-analyses elsewhere with no model', async ({ page, browser, baseURL }) => {
  const endpoint = await startFakeEndpoint({ models: ['fake-model'] });
  try {
    await page.goto('./');
    await page.getByRole('button', { name: /Support triage/ }).click();
    await waitForDone(page);
    await page.getByLabel('Ask before sending more than').fill('5');
    await page.getByLabel('Ask before sending more than').dispatchEvent('change');
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await page.getByLabel('Model id').fill('fake-model');
    await page.getByLabel('Model id').dispatchEvent('change');
    // Five requests go out, then the page waits for the user's go.
    const ask = page.getByRole('alertdialog');
    await expect(ask).toContainText('Paused before sending more than 5 requests', { timeout: 30_000 });
    await expect(ask).toContainText(endpoint.url);
    expect(endpoint.requests.length).toBe(5);
    await ask.getByRole('button', { name: 'Send them' }).click();
    await waitForDone(page);
    const sent = endpoint.requests.length;
    expect(sent).toBeGreaterThan(5);
    expect(new Set(endpoint.requests.map((r) => JSON.stringify(r))).size).toBe(sent);
    await expect(page.getByTestId('model-activity')).toContainText(`Model: ${sent} requests sent`);
    await expect(page.getByTestId('batch-model-usage')).toContainText(`${sent} requests sent`);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export session' }).click();
    const file = await downloadedText(await downloading);
    const session = JSON.parse(file) as { results: { modelKeys?: string[] }[]; modelCache?: { key: string }[] };
    const used = new Set(session.results.flatMap((r) => r.modelKeys ?? []));
    expect(used.size).toBe(sent);
    expect(session.modelCache?.map((e) => e.key).sort()).toEqual([...used].sort());

    // Another browser profile: no endpoint, an empty response store. The file brings its responses.
    const elsewhere = await browser.newContext({ baseURL });
    const other = await elsewhere.newPage();
    await other.goto('./');
    await other.getByLabel('Open trace').setInputFiles({ name: 'triage.session.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await waitForDone(other);
    await expect(meanShapley(other, 'review')).toHaveText(/0\.508/);
    // A setting that re-runs every case with the same requests: all answered from the file's responses.
    await other.locator('#setting-interactions').check();
    await expect(other.getByTestId('model-activity')).toContainText(`Model: 0 requests sent · ${sent} answered from the cache`, { timeout: 30_000 });
    await waitForDone(other);
    await expect(other.getByText(/could not be analysed/)).toHaveCount(0);
    expect(endpoint.requests.length).toBe(sent);
    await elsewhere.close();
  } finally {
    await endpoint.close();
  }
});

/** A model step asking for an alias the study does not map: every case fails with the model layer's message. */
const UNMAPPED_ALIAS = `export default {
  name: "unmapped-judge",
  models: { default: "toy-1" },
  steps: [{ name: "grade", inputs: ["q"], cost: 1,
    run: ({ q }, noise, { llm }) => llm.chat({ model: "judge", messages: [{ role: "user", content: "grade " + q }], temperature: 0 }).text,
    fixes: [{ name: "plain", cost: 1, run: () => "ok" }] }],
  metric: (o) => (o.grade === "ok" ? 1 : 0),
  cases: [{ id: "a", inputs: { q: 1 } }],
};
`;

test('a model failure in a case speaks the page\'s words: its Settings field, never the command\'s flag', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'unmapped-judge.pipeline.js', content: UNMAPPED_ALIAS, type: 'text/javascript' }]);
  await waitForDone(page);
  await page.getByRole('tab', { name: 'Cases' }).click();
  const line = page.getByTestId('case-error');
  await expect(line).toContainText('asks for model "judge", which this study does not map to a model id (known: default); map it (Settings > Model > Other aliases)');
  await expect(line).not.toContainText('the command');
  await expect(line).toHaveAttribute('title', /map it \(Settings > Model > Other aliases\) \(at unmapped-judge.pipeline.js:5:\d+\)$/);
  await page.locator('tr[data-case="a"]').getByRole('button', { name: 'a' }).click();
  const detail = page.getByTestId('case-detail').getByTestId('case-error');
  await expect(detail).toContainText('map it (Settings > Model > Other aliases)');
  await expect(detail).not.toContainText('--model');
});
