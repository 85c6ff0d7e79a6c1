import { expect, test } from '@playwright/test';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { runtapeLog } from '../src/replay/testing/runtape-log.ts';
import { setModel } from './replay-helpers.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

/**
 * Waiting rounds in the page (docs/replay.md, "Time"): the site is cross-origin isolated, so the
 * analysis worker of a chained replay (each model turn quotes the answer before it) waits, in its
 * sandboxed frame, for each response instead of restarting its case once per request. The progress
 * line counts both kinds of rounds (data-rounds-restarted, data-rounds-waited).
 */

const ENDPOINT_PORT = Number(process.env.E2E_ENDPOINT_PORT ?? 0);

test('a chained runtape replay waits for each response in its worker instead of restarting per request', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], port: ENDPOINT_PORT });
  try {
    await page.goto('./');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await dropFiles(page, [{ name: 'chain.runtape.jsonl', content: runtapeLog(40), type: 'application/json' }]);
    await page.getByRole('button', { name: 'Blame this run' }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    // One player (every model turn repaired together), and an outcome the recorded run misses.
    await setup.getByRole('radio', { name: /^Agents/ }).check();
    await setup.getByLabel('The final answer contains').fill('refund denied');
    await setModel(page, endpoint.url);
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);

    const progress = page.getByTestId('run-progress');
    const restarted = Number(await progress.getAttribute('data-rounds-restarted'));
    const waited = Number(await progress.getAttribute('data-rounds-waited'));
    const sent = endpoint.requests.length;
    // 20 model turns, each quoting the answer before it: every response after the first of a
    // chain is waited for; a restarting page would have restarted once per request.
    expect(sent).toBeGreaterThanOrEqual(20);
    expect(waited).toBeGreaterThanOrEqual(19);
    expect(restarted).toBeLessThanOrEqual(sent - waited);
    expect(restarted).toBeLessThan(sent / 4);
    await expect(page.getByText(/could not be analysed/)).toHaveCount(0);
  } finally {
    await endpoint.close();
  }
});
