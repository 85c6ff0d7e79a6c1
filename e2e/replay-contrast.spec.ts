import { expect, test, type Page } from '@playwright/test';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { scripted } from '../src/app/replay/testing/trip-run.ts';
import { downloadedText, sessionRow, waitForStored } from './fixtures.ts';
import { waitForDone } from './workbench-helpers.ts';
import { openTripSetup } from './replay-helpers.ts';

/**
 * The single-step contrast run in the Replay view is kept with the study: stored in this browser
 * (shown again when the session is reopened, with no endpoint), and in the exported report.
 */

/** Whether a stored session body of this page's IndexedDB holds a contrast. */
function storedContrast(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve, reject) => {
        const request = indexedDB.open('agentblame');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const read = db.transaction('bodies', 'readonly').objectStore('bodies').getAll();
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            db.close();
            resolve(read.result.some((body: { contrast?: unknown }) => body.contrast !== undefined));
          };
        };
      }),
  );
}

test('a contrast run in the Replay view is stored with the study: reopened, it is shown again; the report carries it', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted });
  try {
    const setup = await openTripSetup(page, { outcome: '/monday/i', endpoint: endpoint.url });
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);

    await page.getByRole('tab', { name: 'Replay' }).click();
    const contrast = page.getByRole('region', { name: 'Single-step contrast' });
    // The default is the fewest replays that can show a point of commitment; fewer say they never can.
    await expect(contrast.getByLabel('Replays per arm')).toHaveValue('35');
    await expect(contrast.getByTestId('contrast-too-few')).toHaveCount(0);
    await contrast.getByLabel('Replays per arm').fill('3');
    await expect(contrast.getByTestId('contrast-too-few')).toContainText('fewer than 35 replays per arm no point of commitment can be shown');
    await contrast.getByRole('button', { name: 'Run the contrast' }).click();
    await expect(contrast.getByTestId('commitment')).toContainText('No point of commitment', { timeout: 60_000 });
    await expect(contrast.getByTestId('commitment')).toContainText('fewer than 35 replays per arm can never show one');
    await expect.poll(() => storedContrast(page), { timeout: 15_000 }).toBe(true);
    // The contrast's own requests are logged too, each as sent or from the cache.
    const log = contrast.getByTestId('request-log');
    await log.getByText(/^Request log/).click();
    expect(await log.locator('tbody tr').count()).toBeGreaterThan(0);

    // The exported report shows it beside the Shapley ranking.
    const reporting = page.getByRole('button', { name: 'Export report' });
    const download = page.waitForEvent('download');
    await reporting.click();
    const report = await downloadedText(await download);
    expect(report).toContain('id="contrast"');
    expect(report).toContain('No point of commitment: no recorded prefix reproduces the failure in at least 90 % of 3 replays');

    // Reopened from Recent sessions (the definition is not the launcher's any more): read, not re-run.
    const sent = endpoint.requests.length;
    const stored = await waitForStored(page, (s) => s.status === 'done' && s.casesAnalysed === s.caseCount);
    await page.goto('./');
    await sessionRow(page, stored.id).getByTestId('session-open').click();
    await waitForDone(page);
    await page.getByRole('tab', { name: 'Replay' }).click();
    const again = page.getByRole('region', { name: 'Single-step contrast' });
    await expect(again.getByTestId('stored-contrast')).toContainText('3 replays per arm');
    await expect(again.getByTestId('commitment')).toContainText('No point of commitment');
    const answerRow = again.locator('tbody tr').nth(2);
    await expect(answerRow).toContainText('Researcher');
    await expect(answerRow.locator('td').nth(2)).toContainText('0%');
    await expect(answerRow.locator('td').nth(3)).toContainText('100%');
    expect(endpoint.requests.length).toBe(sent);
    await page.screenshot({ path: test.info().outputPath('replay-contrast-reopened.png'), fullPage: true });
  } finally {
    await endpoint.close();
  }
});
