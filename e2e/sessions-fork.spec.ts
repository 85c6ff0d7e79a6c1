import { downloadedText, expect, storedSummaries, test } from './fixtures.ts';
import { demoFile, dropFiles, waitForDone } from './workbench-helpers.ts';

/**
 * The session fork: renaming a study during or right after its analysis, exporting the
 * report and the session and closing at once used to save the rename onto a stale record, leaving
 * it "Interrupted" while the live work went on as "... (copy)". Thirty rounds in one browser.
 */
test('rename during and right after an analysis, export and close, 30 times: no fork, no false "Interrupted"', async ({ page }) => {
  test.setTimeout(300_000);
  const rounds = 30;
  await page.goto('./');
  for (let round = 0; round < rounds; round += 1) {
    const name = `study ${round}`;
    // The demo's trace dropped as a file: each round a new study (a demo clicked again reopens its session).
    await dropFiles(page, [demoFile('refund-policy.trace.json')]);
    const nameField = page.getByRole('textbox', { name: 'Session name' });
    // Odd rounds rename while the analysis may still run, even rounds right after it finished.
    if (round % 2 === 0) await waitForDone(page);
    await nameField.fill(name);
    await nameField.press('Enter');
    await waitForDone(page);

    const report = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report' }).click();
    expect((await report).suggestedFilename()).toMatch(/\.html$/);
    const sessionDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export session' }).click();
    const exported = JSON.parse(await downloadedText(await sessionDownload));
    expect(exported).toMatchObject({ name, status: 'done' });

    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('privacy-note')).toBeVisible();
  }

  await expect
    .poll(async () => (await storedSummaries(page)).map((s) => `${s.name}|${s.status}|${s.casesAnalysed}/${s.caseCount}`).sort(), { timeout: 20_000 })
    .toEqual(Array.from({ length: rounds }, (_, round) => `study ${round}|done|1/1`).sort());
  await page.reload();
  await expect(page.getByTestId('recent-sessions')).toBeVisible();
  await expect(page.getByTestId('resume-offer')).toHaveCount(0);
});
