import { expect, test, type Page } from '@playwright/test';
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

/** Blames a 40-turn runtape chain (one player) against `endpoint`; the rounds counted and the blame table. */
async function blameChain(page: Page, endpoint: string) {
  await page.goto('./');
  await dropFiles(page, [{ name: 'chain.runtape.jsonl', content: runtapeLog(40), type: 'application/json' }]);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  // One player (every model turn repaired together), and an outcome the recorded run misses.
  await setup.getByRole('radio', { name: /^Agents/ }).check();
  await setup.getByLabel('The final answer contains').fill('refund denied');
  await setModel(page, endpoint);
  await setup.getByRole('button', { name: 'Blame', exact: true }).click();
  await waitForDone(page);
  const progress = page.getByTestId('run-progress');
  return {
    restarted: Number(await progress.getAttribute('data-rounds-restarted')),
    waited: Number(await progress.getAttribute('data-rounds-waited')),
    blame: await page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Mean Shapley' }) }).innerText(),
  };
}

test('a chained runtape replay waits for each response in its worker instead of restarting per request; not isolated, it restarts with the same result', async ({ page, browser }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], port: ENDPOINT_PORT });
  try {
    await page.goto('./');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    const waiting = await blameChain(page, endpoint.url);
    const sent = endpoint.requests.length;
    // 20 model turns, each quoting the answer before it: every response after the first of the
    // chain is waited for; a restarting page restarts once per request.
    expect(sent).toBe(20);
    expect(waiting).toMatchObject({ restarted: 1, waited: 19 });
    expect(waiting.blame).toContain('bench-model');
    await expect(page.getByText(/could not be analysed/)).toHaveCount(0);

    // The fallback: the frame's children left out of the isolation (as a browser that does not
    // isolate sandboxed frames leaves them) get no shared memory, and every round restarts.
    const context = await browser.newContext();
    const fallback = await context.newPage();
    await fallback.route('**/analysis-frame.js', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace("child.allow = 'cross-origin-isolated';", '') });
    });
    const restarting = await blameChain(fallback, endpoint.url);
    // A fresh browser context: nothing cached, the same 20 requests sent again.
    expect(endpoint.requests.slice(sent).map((r) => JSON.stringify(r))).toEqual(endpoint.requests.slice(0, sent).map((r) => JSON.stringify(r)));
    // The idle warm-up may start the workers before the allow attribute is stripped, so the counts are not checked here (known gap, see the closing note); the result must agree.
    expect(restarting.blame).toEqual(waiting.blame);
    await context.close();
  } finally {
    await endpoint.close();
  }
});
