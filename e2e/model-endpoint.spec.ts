import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { scripted, tripExport } from '../src/app/replay/testing/trip-run.ts';
import { dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

/**
 * A definition whose steps call a model, opened with no endpoint: one notice says what is missing
 * and the ways out instead of every case failing, a port the browser blocks is named beside the
 * Test connection button before any request, and the waiting cases run once an endpoint passes its
 * connection test (also for a replay blamed from a recorded run). The Model panel shows only for
 * definitions that call a model.
 */

const TRIAGE = readFileSync(new URL('../public/demos/support-triage.pipeline.js', import.meta.url), 'utf8');

/** One case asks the model, the other never does (so it is analysed with no endpoint). */
const ASK_OR_NOT = `export default {
  name: "ask-or-not",
  models: { default: "fake-model" },
  steps: [
    { name: "answer", inputs: ["question", "ask"], cost: 1,
      run: ({ question, ask }, noise, { llm }) => (ask ? llm.chat({ messages: [{ role: "user", content: question }], temperature: 0, max_tokens: 8 }).text : "kept"),
      fixes: [{ name: "keep", cost: 1, run: () => "kept" }] },
  ],
  metric: (outputs) => (outputs.answer === "kept" ? 1 : 0),
  cases: [
    { id: "plain", inputs: { question: "q1", ask: false } },
    { id: "asks", inputs: { question: "q2", ask: true } },
  ],
};
`;

test('model steps with no endpoint wait under one notice, a blocked port is named, and they run once the endpoint answers', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['agentblame-test-model'] });
  try {
    await page.goto('./');
    await dropFiles(page, [{ name: 'support-triage.pipeline.js', content: TRIAGE, type: 'text/javascript' }]);
    const notice = page.getByTestId('endpoint-wait');
    await expect(notice).toContainText('12 of 12 cases wait for a model endpoint', { timeout: 30_000 });
    await expect(notice).toContainText('set the Base URL in Settings › Model');
    await expect(notice).toContainText('open a session file or report that carries the responses');
    // With no URL typed, the notice says so (not "the endpoint at  does not answer").
    await expect(notice.getByTestId('endpoint-unset')).toHaveText('No base URL is set.');
    await expect(notice.getByTestId('endpoint-unanswered')).toHaveCount(0);
    // The Batch view says what it waits for instead of "Waiting for the first results" (nothing runs),
    // and draws no empty chart and no table of dashes, on screen or on paper.
    await expect(page.getByTestId('batch-waiting-endpoint')).toHaveText(/^No case analysed yet: 12 cases wait for a model endpoint, with \d+ requests? no stored response answers\. Set the Base URL in Settings › Model/);
    await expect(page.getByText('Waiting for the first results…')).toHaveCount(0);
    await expect(page.locator('figure.bars')).toHaveCount(0);
    await expect(page.getByTestId('batch-table')).toHaveCount(0);
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('batch-waiting-endpoint')).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
    // No case was run into an error, and no "Done" line claims the study was analysed.
    await page.getByRole('tab', { name: /^Cases/ }).click();
    await expect(page.getByTestId('case-error')).toHaveCount(0);
    await expect(page.getByTestId('run-progress')).toHaveCount(0);

    // The notice's button leads to the field.
    await notice.getByRole('button', { name: 'Set the endpoint' }).click();
    await expect(page.getByLabel('Base URL')).toBeFocused();

    // A port Chromium refuses is named beside the Test connection button, and nothing is asked.
    await page.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await page.getByLabel('Base URL').dispatchEvent('change');
    const status = page.getByTestId('model-connection-status');
    await expect(status).toHaveText('Port 9 is blocked by the browser: use another port (the server\'s --port).');
    await expect(page.getByRole('button', { name: 'Test connection' }).locator('xpath=..')).toContainText('Port 9 is blocked');
    await expect(page.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');
    await expect(notice).toContainText('The Base URL cannot be used: see the Model panel.');

    // A usable endpoint: its connection test passes and the waiting cases run against it.
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await expect(status).toContainText(`Connected: 1 model at ${endpoint.url}.`);
    await waitForDone(page);
    await expect(notice).toHaveCount(0);
    await expect(page.getByTestId('case-error')).toHaveCount(0);
    expect(endpoint.requests.length).toBeGreaterThan(0);
    expect(new Set(endpoint.requests.map((r) => JSON.stringify(r))).size).toBe(endpoint.requests.length);
    // The fake endpoint runs the demo's test model: the numbers are those of its shipped responses.
    await page.getByRole('tab', { name: 'Batch' }).click();
    await expect(meanShapley(page, 'review')).toHaveText(/0\.508/);
  } finally {
    await endpoint.close();
  }
});

test('cases that need no model are analysed while the others wait; a refused endpoint is named beside its button', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: 'ask-or-not.pipeline.js', content: ASK_OR_NOT, type: 'text/javascript' }]);
  const notice = page.getByTestId('endpoint-wait');
  await expect(notice).toContainText('1 of 2 cases wait for a model endpoint', { timeout: 30_000 });
  await expect(notice).toContainText('The other 1 case was analysed.');
  await page.getByRole('tab', { name: /^Cases/ }).click();
  await expect(page.locator('.badge.passed')).toHaveCount(1);
  await expect(page.locator('.badge.pending')).toHaveCount(1);
  // Nothing listens there: the test's error sits beside its button, and the case still waits.
  await page.getByLabel('Base URL').fill('http://127.0.0.1:2/v1');
  await page.getByLabel('Base URL').dispatchEvent('change');
  await expect(page.getByTestId('model-connection-status')).toContainText('Cannot reach http://127.0.0.1:2/v1');
  await expect(notice.getByTestId('endpoint-unanswered')).toContainText('The endpoint at http://127.0.0.1:2/v1 does not answer: its connection test failed');
  await expect(page.getByTestId('case-error')).toHaveCount(0);
});

test('a saved base URL that does not answer is tested after a reload: the cases wait under the notice, and run once an endpoint answers', async ({ page }) => {
  // A well-formed URL nothing listens at: an endpoint started and closed again.
  const gone = await startFakeEndpoint({ models: ['fake-model'] });
  const deadUrl = gone.url;
  await gone.close();
  const endpoint = await startFakeEndpoint({ models: ['fake-model'] });
  try {
    await page.goto('./');
    await dropFiles(page, [{ name: 'ask-or-not.pipeline.js', content: ASK_OR_NOT, type: 'text/javascript' }]);
    const notice = page.getByTestId('endpoint-wait');
    await expect(notice).toContainText('1 of 2 cases wait for a model endpoint', { timeout: 30_000 });
    await page.getByLabel('Base URL').fill(deadUrl);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await expect(notice.getByTestId('endpoint-unanswered')).toContainText(`The endpoint at ${deadUrl} does not answer`);

    // After a reload the saved URL is tested before the waiting case is sent anywhere.
    await page.reload();
    await expect(page.getByLabel('Base URL')).toHaveValue(deadUrl, { timeout: 30_000 });
    await expect(notice).toContainText('1 of 2 cases wait for a model endpoint', { timeout: 30_000 });
    await expect(notice.getByTestId('endpoint-unanswered')).toContainText(`The endpoint at ${deadUrl} does not answer: its connection test failed`);
    await expect(notice).toContainText('fix the Base URL there, then press Test connection');
    await expect(page.getByTestId('model-connection-status')).toContainText(`Cannot reach ${deadUrl}`);
    await page.getByRole('tab', { name: /^Cases/ }).click();
    await expect(page.locator('.badge.pending')).toHaveCount(1);
    await expect(page.getByTestId('case-error')).toHaveCount(0);

    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await waitForDone(page);
    await expect(notice).toHaveCount(0);
    await expect(page.getByTestId('case-error')).toHaveCount(0);
    expect(endpoint.requests.map((r) => r.messages[0].content)).toEqual(['q2']);
  } finally {
    await endpoint.close();
  }
});

/** Cases that each ask the model about their own question. */
function asking(questions: string[]): string {
  return ASK_OR_NOT.replace('name: "ask-or-not"', 'name: "asking"').replace(/cases: \[[^\]]*\]/, `cases: ${JSON.stringify(questions.map((q) => ({ id: q, inputs: { question: q, ask: true } })))}`);
}

test('with some responses stored, the notice says what they answered and what ran', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['fake-model'] });
  try {
    await page.goto('./');
    // Set up once it waits: q1's response is then kept in this browser's store.
    await dropFiles(page, [{ name: 'asking.pipeline.js', content: asking(['q1']), type: 'text/javascript' }]);
    await expect(page.getByTestId('endpoint-wait')).toContainText('1 of 1 case waits', { timeout: 30_000 });
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await waitForDone(page);
    expect(endpoint.requests).toHaveLength(1);
    // Without an endpoint, another study: q1 is answered from the store, q2 and q3 wait.
    await page.getByLabel('Base URL').fill('');
    await page.getByLabel('Base URL').dispatchEvent('change');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await dropFiles(page, [{ name: 'asking.pipeline.js', content: asking(['q1', 'q2', 'q3']), type: 'text/javascript' }]);
    const notice = page.getByTestId('endpoint-wait');
    await expect(notice).toContainText('2 of 3 cases wait for a model endpoint', { timeout: 30_000 });
    await expect(notice).toContainText('no stored response answers the 2 requests they asked');
    await expect(notice).toContainText('The other 1 case was analysed: the stored responses answered 1 request.');
    expect(endpoint.requests).toHaveLength(1);
  } finally {
    await endpoint.close();
  }
});

test('the Model panel shows only for a definition that calls a model, known from its compiled summary', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: /Refund policy, mechanism B/ }).click();
  await waitForDone(page);
  await expect(page.getByRole('complementary', { name: 'Settings' })).toBeVisible();
  await expect(page.getByLabel('Base URL')).toHaveCount(0);
  await expect(page.getByTestId('endpoint-wait')).toHaveCount(0);
  // A definition that calls a model has the panel from its compiled summary, before any case asks anything.
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  const quiet = ASK_OR_NOT.replace(/\{ id: "asks"[^\n]*\n/, '');
  await dropFiles(page, [{ name: 'ask-or-not.pipeline.js', content: quiet, type: 'text/javascript' }]);
  await waitForDone(page);
  await expect(page.getByLabel('Base URL')).toBeVisible();
  await expect(page.getByTestId('model-activity')).toHaveCount(0);
});

test('a run blamed with no endpoint waits under the notice, and is blamed once the endpoint is set', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted });
  try {
    await page.goto('./');
    await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
    await page.getByRole('button', { name: 'Blame this run' }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    await setup.getByLabel('The final answer contains').fill('/monday/i');
    await page.getByLabel('Model id').fill('scripted');
    await page.getByLabel('Model id').dispatchEvent('change');
    await expect(setup.getByTestId('replay-cache-count')).toContainText(/The cache answers 0 of at most \d+ requests, and no usable model endpoint is set/, { timeout: 30_000 });
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();

    const notice = page.getByTestId('endpoint-wait');
    await expect(notice).toContainText('1 of 1 case waits for a model endpoint', { timeout: 30_000 });
    expect(endpoint.requests).toHaveLength(0);
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await waitForDone(page);
    await expect(page.getByText(/could not be analysed/)).toHaveCount(0);
    expect(endpoint.requests.length).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Replay' }).click();
    const players = page.getByRole('region', { name: 'Replay' }).locator('ol.players > li');
    await expect(players.first()).toContainText('Researcher');
  } finally {
    await endpoint.close();
  }
});

test('an endpoint whose model list answers 404 (a proxy) is used: its chat requests decide', async ({ page }) => {
  const proxy = await startFakeEndpoint({ listsModels: false });
  try {
    await page.goto('./');
    await dropFiles(page, [{ name: 'ask-or-not.pipeline.js', content: ASK_OR_NOT, type: 'text/javascript' }]);
    const notice = page.getByTestId('endpoint-wait');
    await expect(notice).toContainText('1 of 2 cases wait for a model endpoint', { timeout: 30_000 });
    await page.getByLabel('Base URL').fill(proxy.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await expect(page.getByTestId('model-connection-status')).toContainText(`Connected to ${proxy.url}: it lists no models`);
    await waitForDone(page);
    await expect(notice).toHaveCount(0);
    await page.getByRole('tab', { name: /^Cases/ }).click();
    await expect(page.getByTestId('case-error')).toHaveCount(0);
    expect(proxy.requests.length).toBeGreaterThan(0);
  } finally {
    await proxy.close();
  }
});

test('while a model study waits on a slow endpoint, the Batch view says what it waits for, not an empty frame', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['fake-model'], latencyMs: 6_000, port: 18401 });
  try {
    // An endpoint that is no llama-server is not asked for llama.cpp's /props (its 404 would be a red console error).
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} ${message.location().url}`);
    });
    await page.goto('./');
    const asks = ASK_OR_NOT.replace('{ id: "plain", inputs: { question: "q1", ask: false } },', '');
    await dropFiles(page, [{ name: 'asks.pipeline.js', content: asks, type: 'text/javascript' }]);
    await expect(page.getByTestId('batch-waiting-endpoint')).toContainText('1 case waits for a model endpoint', { timeout: 30_000 });
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    const waiting = page.getByTestId('batch-model-wait');
    await expect(waiting).toContainText(`No case analysed yet: waiting for the model at ${endpoint.url}. 1 request sent, 0 answered, 1 in flight`);
    await expect(page.locator('figure.bars')).toHaveCount(0);
    await expect(page.getByTestId('batch-table')).toHaveCount(0);
    await page.screenshot({ path: '/tmp/polish-model-wait.png' });
    await waitForDone(page);
    await expect(waiting).toHaveCount(0);
    await expect(page.locator('figure.bars')).toBeVisible();
    expect(consoleErrors.filter((line) => line.includes('/props'))).toEqual([]);
  } finally {
    await endpoint.close();
  }
});
