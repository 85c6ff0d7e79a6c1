import { expect, test } from '@playwright/test';
import { demoFile, dropFiles, meanShapley, twoPlayerGameFile, waitForDone } from './workbench-helpers.ts';

test.describe('ways in', () => {
  test('the landing page says nothing leaves the browser', async ({ page }) => {
    await page.goto('./');
    await expect(page.getByTestId('privacy-note')).toContainText('Nothing leaves your browser');
    // What the page keeps: the sessions, and the trace files opened as runs (their own list on this page).
    await expect(page.getByTestId('privacy-note')).toContainText('sessions and the trace files opened in the run view are kept in this browser\'s storage');
    await expect(page.getByTestId('privacy-note')).toContainText('Trace files kept in this browser');
    await expect(page.getByText('Open trace')).toBeVisible();
  });

  test('dropping the refund demo trace shows planner and retriever at 0.417', async ({ page }) => {
    await page.goto('./');
    await dropFiles(page, [demoFile('refund-policy.trace.json')], { checkOverlay: true });
    await expect(meanShapley(page, 'planner')).toHaveText('0.417');
    await expect(meanShapley(page, 'retriever')).toHaveText('0.417');
    await expect(meanShapley(page, 'writer')).toHaveText('0.083');
    await expect(meanShapley(page, 'reviewer')).toHaveText('0.083');
  });

  test('a case drill-down shows baselines, the coalition table and both runs’ outputs', async ({ page }) => {
    await page.goto('./');
    await dropFiles(page, [demoFile('refund-policy.trace.json')]);
    await waitForDone(page);
    await page.getByRole('tab', { name: /Cases/ }).click();
    await page.getByRole('button', { name: 'refund-q1' }).click();
    const steps = page.getByTestId('case-steps');
    await expect(steps.locator('tr[data-step=planner]')).toContainText('0.417');
    // Fix alone 1 for planner, leave-one-out 0; the reviewer is the last step to touch.
    await expect(steps.locator('tr[data-step=planner] td').nth(1)).toHaveText('1.000');
    await expect(steps.locator('tr[data-step=planner] td').nth(2)).toHaveText('0.000');
    await expect(steps.locator('tr[data-step=reviewer]')).toContainText('blamed');
    await expect(page.getByTestId('coalition-table').locator('tbody tr')).toHaveCount(16);
    await expect(page.getByTestId('outputs-compare')).toContainText('90 days');
    await expect(page.getByTestId('outputs-compare')).toContainText('30 days');
  });

  test('the keyboard-accessible picker opens a trace', async ({ page }) => {
    await page.goto('./');
    const chooser = page.waitForEvent('filechooser');
    await page.getByLabel('Open trace').focus();
    await page.keyboard.press('Space');
    await (await chooser).setFiles({ name: 'refund-policy.trace.json', mimeType: 'application/json', buffer: Buffer.from(demoFile('refund-policy.trace.json').content) });
    await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  });

  test('one-click demo and pasted JSON', async ({ page }) => {
    await page.goto('./');
    await page.getByRole('button', { name: /Refund policy, mechanism B/ }).click();
    await waitForDone(page);
    await expect(meanShapley(page, 'writer')).toHaveText('0.000');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Or paste JSON').fill(demoFile('refund-policy.trace.json').content);
    await page.getByRole('button', { name: 'Open pasted JSON' }).click();
    await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  });

  test('?trace= opens a same-origin trace and refuses another origin', async ({ page }) => {
    await page.goto('./?trace=demos/refund-policy.trace.json');
    await expect(meanShapley(page, 'retriever')).toHaveText('0.417');
    await page.goto('./?trace=https://example.com/x.trace.json');
    await expect(page.getByRole('alert')).toContainText('another origin');
    // A missing file is said to be missing (the preview server answers every path with the app's page).
    await page.goto('./?trace=demos/missing.trace.json');
    await expect(page.getByRole('alert')).toContainText('There is no file at');
    await expect(page.getByRole('alert')).not.toContainText('Report import');
  });

  test('a .js definition dropped after a trace without one is paired with it', async ({ page }) => {
    const trace = JSON.parse(demoFile('refund-policy.trace.json').content);
    delete trace.pipeline;
    await page.goto('./');
    await dropFiles(page, [{ name: 'bare.trace.json', content: JSON.stringify(trace) }]);
    await expect(page.getByRole('note').filter({ hasText: 'no pipeline definition' })).toBeVisible();
    await dropFiles(page, [demoFile('refund-policy.pipeline.js')]);
    await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  });
});

test('a game file (outcomes computed elsewhere) is analysed without a definition', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [twoPlayerGameFile('either.game.json', [0, 1, 1, 1])]);
  await expect(meanShapley(page, 'planner')).toHaveText('0.500');
  await expect(meanShapley(page, 'retriever')).toHaveText('0.500');
});

test.describe('import errors', () => {
  test('a broken trace names the problem and its JSON path', async ({ page }) => {
    await page.goto('./');
    const broken = JSON.stringify({ format: 'agentblame-trace', version: 1, cases: [{ id: 'q1', inputs: {} }, { id: 'q2', inputs: [] }] });
    await page.locator('input[type=file]').first().setInputFiles({ name: 'broken.trace.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Could not open broken.trace.json');
    await expect(alert).toContainText('cases[1].inputs');
  });

  test('a JSON syntax error names its line', async ({ page }) => {
    await page.goto('./');
    await dropFiles(page, [{ name: 'cut.trace.json', content: '{ "format": "agentblame-trace",\n  "version": 1,\n  "cases": [ { "id": "q1" ' }]);
    await expect(page.getByRole('alert')).toContainText(/line 3/i);
  });

  test('an unrecognised file lists the formats the workbench reads', async ({ page }) => {
    await page.goto('./');
    await dropFiles(page, [{ name: 'notes.json', content: '{ "hello": "world" }' }]);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('agentblame-trace');
    await expect(alert).toContainText('agentblame-game');
  });

  test('a JSON list of numbers is said to be one in a few words, with no list of every format', async ({ page }) => {
    await page.goto('./');
    await dropFiles(page, [{ name: 'nums.json', content: '[1, 2, 3]' }]);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('"nums.json" is a JSON array of 3 numbers, not a trace');
    await expect(alert).not.toContainText('agentblame-game');
  });

  test('a definition with a syntax error is marked at its line in the code view', async ({ page }) => {
    await page.goto('./');
    const source = 'export default {\n  name: "x",\n  steps: [,\n  metric: () => 1 +,\n};\n';
    await dropFiles(page, [{ name: 'bad.pipeline.js', content: source, type: 'text/javascript' }]);
    await expect(page.getByTestId('definition-error')).toBeVisible();
    await expect(page.locator('.cm-definition-error')).toHaveCount(1);
  });
});
