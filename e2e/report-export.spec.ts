/**
 * The report end to end through the workbench: the report a user exports is named after the session,
 * reads completely from disk with JavaScript off and the network cut, and reopens its session when
 * it is picked in a fresh workbench (a new browser context, so nothing comes from this one's storage).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, storedSummaries, test, waitForStored } from './fixtures.ts';
import { openOffline } from './report-helpers.ts';
import { meanShapley, waitForDone } from './workbench-helpers.ts';

const SESSION_NAME = 'Refund study, January';

test('Export report: named after the session, readable offline without JavaScript, and it reopens the session', async ({ page, browser, baseURL }) => {
  await page.goto('./');
  await page.locator('button[data-demo="refund-policy"]').click();
  await waitForDone(page);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');

  // Name the session, and wait until the name is stored (the export takes the session's name).
  const name = page.getByLabel('Session name');
  await name.fill(SESSION_NAME);
  await name.press('Tab');
  await waitForStored(page, (s) => s.name === SESSION_NAME && s.status === 'done' && s.casesAnalysed === 1);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export report' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${SESSION_NAME}.agentblame.html`);
  const path = join(mkdtempSync(join(tmpdir(), 'agentblame-export-')), download.suggestedFilename());
  await download.saveAs(path);
  const url = pathToFileURL(path).href;

  // The saved file, opened from disk: no script, and every request but the file itself fails the test.
  const offline = await openOffline(browser, url, { javaScriptEnabled: false });
  const report = offline.page;
  await expect(report).toHaveTitle(`${SESSION_NAME} · agentblame report`);
  await expect(report.getByRole('heading', { level: 1 })).toHaveText(SESSION_NAME);
  const batch = report.locator('#batch table tbody tr');
  await expect(batch.filter({ hasText: 'planner' })).toContainText('+0.417');
  await expect(batch.filter({ hasText: 'retriever' })).toContainText('+0.417');
  await expect(batch.filter({ hasText: 'writer' })).toContainText('+0.083');
  // The workbench knows the compiled definition, so the report names the fixes, not "the default fix".
  const fixes = report.locator('#fixes table tbody tr');
  await expect(fixes.filter({ hasText: 'retriever' })).toContainText('drop superseded');
  await expect(fixes.filter({ hasText: 'reviewer' })).toContainText('check cited claims');
  // The per-case drill-down, open without script: Shapley beside the baselines, and both runs' answers.
  const drill = report.locator('details#case-0');
  await expect(drill).toHaveAttribute('open', '');
  await expect(drill.locator('summary')).toContainText('refund-q1');
  const blame = drill.locator('#case-0-blame tbody tr');
  await expect(blame.filter({ hasText: 'planner' })).toContainText('+0.417');
  await expect(blame.filter({ hasText: 'retriever' })).toContainText('+0.417');
  await expect(blame.filter({ hasText: 'reviewer' })).toContainText('last touch');
  await expect(drill).toContainText('90 days');
  await expect(drill).toContainText('30 days');
  expect(offline.requests).toEqual([]);
  expect(offline.problems).toEqual([]);
  await offline.context.close();

  // A fresh workbench (its own, empty storage): the picker offers reports, and picking this one reopens the session.
  const fresh = await browser.newContext({ baseURL });
  const workbench = await fresh.newPage();
  await workbench.goto('./');
  expect(await storedSummaries(workbench)).toEqual([]);
  const picker = workbench.getByLabel('Open trace');
  await expect(picker).toHaveAttribute('accept', /(^|,)\.html(,|$)/);
  await picker.setInputFiles(path);
  await expect(workbench.getByLabel('Session name')).toHaveValue(SESSION_NAME);
  await expect(meanShapley(workbench, 'planner')).toHaveText('0.417');
  await expect(meanShapley(workbench, 'retriever')).toHaveText('0.417');
  await expect(meanShapley(workbench, 'reviewer')).toHaveText('0.083');
  await waitForStored(workbench, (s) => s.name === SESSION_NAME && s.casesAnalysed === 1 && s.failuresAnalysed === 1);
  await fresh.close();
});
