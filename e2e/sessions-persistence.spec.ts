import { downloadedText, expect, goHome, sessionRow, storedSummaries, test, waitForStored } from './fixtures.ts';
import { demoFile, dropFiles, meanShapley, twoPlayerGameFile, waitForDone } from './workbench-helpers.ts';

/** Forty cases whose steps each spin for a while (about half a second a case), so a reload lands mid-analysis. */
const SLOW_DEFINITION = `function spin(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + i) % 7; return s; }
export default {
  name: "slow-sessions",
  steps: [
    { name: "a", inputs: ["x"], cost: 1, run: ({ x }) => spin(4e6) * 0 + x, fixes: [{ name: "up", cost: 1, run: ({ x }) => spin(4e6) * 0 + x + 1 }] },
    { name: "b", inputs: ["a"], cost: 1, run: ({ a }) => spin(4e6) * 0 + a, fixes: [{ name: "up", cost: 1, run: ({ a }) => spin(4e6) * 0 + a + 1 }] },
  ],
  metric: (outputs) => (outputs.b >= 2 ? 1 : 0),
  cases: Array.from({ length: 40 }, (_, i) => ({ id: "s" + i, inputs: { x: 0 } })),
};
`;

/** Opens the refund demo, lets it finish and waits until the finished session is stored. */
async function analyseRefundDemo(page: import('@playwright/test').Page) {
  await page.goto('./');
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page);
  return waitForStored(page, (s) => s.status === 'done' && s.casesAnalysed === s.caseCount);
}

test('a reload keeps the session: listed under Recent sessions, and it opens with its results', async ({ page }) => {
  const stored = await analyseRefundDemo(page);
  await page.goto('./'); // a new visit of the start page (a reload now reopens the open study's view)
  const row = sessionRow(page, stored.id);
  await expect(page.getByTestId('recent-sessions')).toBeVisible();
  await expect(row.getByTestId('session-open')).toHaveText(stored.name);
  const meta = row.getByTestId('session-meta');
  await expect(meta).toContainText('refund-policy.trace.json');
  await expect(meta).toContainText('refund-policy');
  await expect(row.getByTestId('session-failures')).toHaveText(`${stored.failuresAnalysed} ${stored.failuresAnalysed === 1 ? 'failure' : 'failures'} analysed`);
  expect(stored.failuresAnalysed).toBeGreaterThan(0);
  await expect(meta.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  // How the study was analysed and how big it is: mode, method and case count.
  await expect(row.getByTestId('session-study')).toHaveText('recorded · auto method · 1 case');

  await row.getByTestId('session-open').click();
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  await expect(meanShapley(page, 'writer')).toHaveText('0.083');
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-status', 'done');
});

test('rename and delete from Recent sessions, both surviving a reload', async ({ page }) => {
  const stored = await analyseRefundDemo(page);
  await goHome(page);
  const row = sessionRow(page, stored.id);
  await row.getByTestId('session-rename').click();
  const input = row.getByTestId('session-rename-input');
  await input.fill('Refund study, January');
  await input.press('Enter');
  await expect(row.getByTestId('session-open')).toHaveText('Refund study, January');
  await page.reload();
  await expect(sessionRow(page, stored.id).getByTestId('session-open')).toHaveText('Refund study, January');

  // Escape abandons a rename.
  await sessionRow(page, stored.id).getByTestId('session-rename').click();
  await sessionRow(page, stored.id).getByTestId('session-rename-input').fill('not this');
  await sessionRow(page, stored.id).getByTestId('session-rename-input').press('Escape');
  await expect(sessionRow(page, stored.id).getByTestId('session-open')).toHaveText('Refund study, January');

  await sessionRow(page, stored.id).getByTestId('session-delete').click();
  await sessionRow(page, stored.id).getByTestId('session-delete-confirm').click();
  await expect(sessionRow(page, stored.id)).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('privacy-note')).toBeVisible();
  await expect(page.getByTestId('recent-sessions')).toHaveCount(0);
  expect(await storedSummaries(page)).toEqual([]);
});

test('export a session file and import it again', async ({ page }) => {
  const stored = await analyseRefundDemo(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.agentblame-session\.json$/);
  const text = await downloadedText(download);
  const file = JSON.parse(text);
  expect(file).toMatchObject({ format: 'agentblame-session', version: 1, id: stored.id });
  expect(file.results).toHaveLength(stored.caseCount);

  // Delete the stored copy, then bring the session back from the file.
  await goHome(page);
  await sessionRow(page, stored.id).getByTestId('session-delete').click();
  await sessionRow(page, stored.id).getByTestId('session-delete-confirm').click();
  await expect(sessionRow(page, stored.id)).toHaveCount(0);
  await dropFiles(page, [{ name: download.suggestedFilename(), content: text, type: 'application/json' }]);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  const back = await waitForStored(page, (s) => s.id === stored.id);
  expect(back).toMatchObject({ casesAnalysed: stored.caseCount, failuresAnalysed: stored.failuresAnalysed });

  // Importing the same file again keeps both: the copy gets a fresh id, nothing is overwritten.
  await goHome(page);
  await dropFiles(page, [{ name: download.suggestedFilename(), content: text, type: 'application/json' }]);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  await expect.poll(async () => (await storedSummaries(page)).length).toBe(2);
});

test('a damaged session file is refused with its JSON path and leaves stored sessions intact', async ({ page }) => {
  const stored = await analyseRefundDemo(page);
  await goHome(page);
  const damaged = JSON.stringify({ format: 'agentblame-session', version: 1, id: 'x', name: 'x', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', fileName: 'x.json', cases: [{ id: 'a', inputs: 7 }] });
  await dropFiles(page, [{ name: 'damaged.agentblame-session.json', content: damaged, type: 'application/json' }]);
  await expect(page.getByRole('alert')).toContainText('cases[0].inputs');
  expect((await storedSummaries(page)).map((s) => s.id)).toEqual([stored.id]);
  await expect(sessionRow(page, stored.id)).toBeVisible();
});

test('a reload mid-analysis keeps the finished cases and offers to resume', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'slow.pipeline.js', content: SLOW_DEFINITION, type: 'text/javascript' }]);
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-status', 'running');
  const partial = await waitForStored(page, (s) => s.status === 'running' && s.casesAnalysed >= 2, 60_000);
  expect(partial.casesAnalysed).toBeLessThan(40);
  await page.goto('./'); // a new visit of the start page (a reload now reopens the open study's view)

  const offer = page.getByTestId('resume-offer');
  await expect(offer).toBeVisible();
  const row = sessionRow(page, partial.id);
  await expect(row).toHaveAttribute('data-status', 'running');
  await expect(row.getByTestId('session-failures')).toContainText('of 40 cases done');

  const kept = (await storedSummaries(page)).find((s) => s.id === partial.id);
  expect(kept?.casesAnalysed).toBeGreaterThanOrEqual(partial.casesAnalysed);
  await offer.locator(`[data-testid=session-resume][data-session-id="${partial.id}"]`).click();
  const progress = page.getByTestId('run-progress');
  // The finished cases are back without re-running them; the rest waits for Resume.
  await expect(progress).toContainText(`${kept?.casesAnalysed} of 40`);
  await progress.getByRole('button', { name: 'Resume' }).click();
  await waitForDone(page, 120_000);
  await expect(progress).toContainText('Done: 40 cases');
  await waitForStored(page, (s) => s.id === partial.id && s.status === 'done' && s.casesAnalysed === 40);
});

test('a game-table study is saved: after a reload it is listed, reopens, and its tables still analyse', async ({ page }) => {
  // Shapley by hand: planner (1 - 0 + 1 - 0.5) / 2 = 0.75, retriever (0.5 - 0 + 1 - 1) / 2 = 0.25.
  await page.goto('./');
  await dropFiles(page, [twoPlayerGameFile('uneven.game.json', [0, 1, 0.5, 1])]);
  await expect(meanShapley(page, 'planner')).toHaveText('0.750');
  const stored = await waitForStored(page, (s) => s.status === 'done' && s.casesAnalysed === 1);
  expect(stored).toMatchObject({ fileName: 'uneven.game.json', pipelineName: '', caseCount: 1 });

  await page.goto('./'); // a new visit of the start page (a reload now reopens the open study's view)
  const row = sessionRow(page, stored.id);
  await expect(row.getByTestId('session-meta')).toContainText('uneven.game.json');
  await row.getByTestId('session-open').click();
  await expect(meanShapley(page, 'planner')).toHaveText('0.750');
  await expect(meanShapley(page, 'retriever')).toHaveText('0.250');

  // Another mode makes the workbench analyse the game again, from the table that was stored.
  await page.getByLabel('Mode', { exact: true }).selectOption('prior');
  await expect(meanShapley(page, 'planner')).toHaveText('0.750');
  await expect(meanShapley(page, 'retriever')).toHaveText('0.250');
  await waitForDone(page);

  // The exported session carries the table as plain numbers by bitmask.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  const file = JSON.parse(await downloadedText(await downloading));
  expect(file.games).toEqual([{ id: 'case-1', players: ['planner', 'retriever'], values: [0, 1, 0.5, 1] }]);
  expect(file.settings.mode).toBe('prior');
});
