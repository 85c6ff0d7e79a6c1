import { expect, test } from '@playwright/test';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { scripted } from '../src/app/replay/testing/trip-run.ts';
import { downloadedText } from './fixtures.ts';
import { openTripSetup, setField } from './replay-helpers.ts';
import { waitForDone } from './workbench-helpers.ts';

/**
 * A replay study's requests: while it runs, the progress line counts model requests (sent, of the
 * most it can send, from the cache, time left), not its one case; afterwards the request log lists
 * each request with its turn, filters them and exports them as JSONL without the API key.
 */

const ENDPOINT_PORT = Number(process.env.E2E_ENDPOINT_PORT ?? 0);
const KEY = 'sk-e2e-replay-0123456789';

test('a replay counts its model requests while it runs, and its request log filters and exports them without the key', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted, port: ENDPOINT_PORT, latencyMs: 400, apiKey: KEY });
  try {
    const setup = await openTripSetup(page, { outcome: '/monday/i', endpoint: endpoint.url });
    await page.getByLabel('API key').fill(KEY);
    await setField(page, 'Requests at once', '1');
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();

    // Running: requests of the most it can send (an upper bound), the cache, and the time left; never "0 of 1 cases".
    const progress = page.getByTestId('run-progress');
    await expect(progress).toHaveAttribute('data-status', 'running');
    await expect(progress).toContainText(/Replaying: \d+ model requests? sent of at most \d+ \(an upper bound\)\s+·\s+\d+ answered from the cache\s+·/);
    await expect(progress).toContainText(/at most (\d+ s|\d+ min|under a second) left/);
    await expect(progress).not.toContainText('of 1 cases');
    const most = Number(/of at most (\d+)/.exec(await progress.innerText())![1]);
    await waitForDone(page);
    expect(endpoint.requests.length).toBeGreaterThan(0);
    expect(endpoint.requests.length).toBeLessThanOrEqual(most);

    // The request log: one row per request sent, each named by the turn that sent it.
    const log = page.getByTestId('request-log');
    await log.getByText(/^Request log \(\d+ requests?/).click();
    const rows = log.locator('tbody tr');
    await expect(rows).toHaveCount(endpoint.requests.length);
    await expect(rows.first()).toContainText(/turn \d+: step \d+ /);
    await expect(rows.first()).toContainText(/\d+ ms/);
    await log.getByLabel('Status').selectOption('cache');
    await expect(rows).toHaveCount(0);
    await log.getByLabel('Status').selectOption('sent');
    await expect(rows).toHaveCount(endpoint.requests.length);
    const turns = await log.getByLabel('Turn or step').locator('option').allInnerTexts();
    expect(turns.length).toBeGreaterThan(2);
    await log.getByLabel('Turn or step').selectOption({ label: turns[1] });
    const ofTurn = await rows.count();
    expect(ofTurn).toBeGreaterThan(0);
    expect(ofTurn).toBeLessThan(endpoint.requests.length);
    await log.getByLabel('Turn or step').selectOption({ label: 'Every one' });
    await log.getByLabel('Find').fill('museum is open every day');
    const found = await rows.count();
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(endpoint.requests.length);
    await log.getByLabel('Find').fill('');

    const downloading = page.waitForEvent('download');
    await log.getByRole('button', { name: 'Export JSONL' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.requests\.jsonl$/);
    const text = await downloadedText(download);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { status: string; turn: string; latencyMs: number; inputTokens: number });
    expect(lines).toHaveLength(endpoint.requests.length);
    expect(lines.every((l) => l.status === 'sent' && /^turn \d+/.test(l.turn) && l.latencyMs >= 0 && l.inputTokens === 10)).toBe(true);
    // The key was sent with every request, and is nowhere in the export.
    expect(endpoint.authorizations.every((a) => a === `Bearer ${KEY}`)).toBe(true);
    expect(text).not.toContain(KEY);

    // Blamed again (the answers are in this browser's store now): every request from the cache.
    await page.getByRole('button', { name: 'Back to the runs' }).click();
    await page.getByRole('button', { name: 'Blame this run' }).click();
    const sent = endpoint.requests.length;
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);
    expect(endpoint.requests.length).toBe(sent);
    await page.getByTestId('request-log').getByText(/^Request log/).click();
    await page.getByTestId('request-log').getByLabel('Status').selectOption('cache');
    await expect(page.getByTestId('request-log').locator('tbody tr')).toHaveCount(sent);
  } finally {
    await endpoint.close();
  }
});
