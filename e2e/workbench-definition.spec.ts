import { expect, goHome, sessionRow, storedSummaries, test, waitForStored } from './fixtures.ts';
import { dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

/** Two steps, one case: v(S) = 1 for any fix, so each step gets 0.5. */
const TWO_STEPS = `export default {
  name: "two-steps",
  steps: [
    { name: "draft", inputs: ["q"], cost: 1, run: () => "bad", fixes: [{ name: "good", cost: 1, run: () => "good" }] },
    { name: "check", inputs: ["draft"], cost: 1, run: ({ draft }) => draft, fixes: [{ name: "strict", cost: 1, run: () => "good" }] },
  ],
  metric: (o) => (o.check === "good" ? 1 : 0),
  cases: [{ id: "c1", inputs: { q: 1 } }],
};
`;

/** Line 4 with a syntax error in it. */
const BROKEN = TWO_STEPS.replace('run: () => "bad",', 'run: () => "bad" +,');
/** The check step no longer passes the draft through: only its own fix repairs the case. */
const EDITED = TWO_STEPS.replace('run: ({ draft }) => draft,', 'run: () => "bad",');

/** The pipeline source stored for a session (IndexedDB "agentblame", store "inputs"). */
function storedSource(page: import('@playwright/test').Page, id: string): Promise<string | null> {
  return page.evaluate(
    (sessionId) =>
      new Promise<string | null>((resolve, reject) => {
        const request = indexedDB.open('agentblame');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const read = db.transaction('inputs', 'readonly').objectStore('inputs').get(sessionId);
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            db.close();
            resolve((read.result as { pipeline?: { source: string } } | undefined)?.pipeline?.source ?? null);
          };
        };
      }),
    id,
  );
}

async function replaceSource(page: import('@playwright/test').Page, text: string): Promise<void> {
  const content = page.locator('[data-testid=definition-source] .cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

test('the definition is edited in place: an error shows at its line, a fixed edit re-runs and is kept in the session', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'two-steps.pipeline.js', content: TWO_STEPS, type: 'text/javascript' }]);
  await waitForDone(page);
  await expect(meanShapley(page, 'draft')).toHaveText('0.500');

  await page.getByRole('tab', { name: /^Definition/ }).click();
  const run = page.getByTestId('definition-run');
  await expect(run).toBeDisabled();

  // A syntax error: the banner names the line, and the editor marks that line with the message at its end.
  await replaceSource(page, BROKEN);
  await expect(run).toBeEnabled();
  await run.click();
  await expect(page.getByTestId('definition-error')).toContainText('(line 4)');
  const marked = page.locator('[data-testid=definition-source] .cm-definition-error');
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('run: () => "bad" +,');
  await expect(marked.locator('.cm-definition-note')).toContainText('←');
  await expect(page.getByRole('tab', { name: 'Definition ⚠' })).toBeVisible();

  // A working edit: re-run, and the blame moves to the check step.
  await replaceSource(page, EDITED);
  await run.click();
  await expect(page.getByTestId('definition-error')).toHaveCount(0);
  await expect(page.locator('[data-testid=definition-source] .cm-definition-error')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Batch' }).click();
  await waitForDone(page);
  await expect(meanShapley(page, 'check')).toHaveText('1.000');
  await expect(meanShapley(page, 'draft')).toHaveText('0.000');

  // Kept in the session: after a reload the stored study has the edited code and its results.
  const stored = await waitForStored(page, (s) => s.status === 'done' && s.failuresAnalysed === 1);
  await expect.poll(() => storedSource(page, stored.id), { message: 'waiting for the edited definition to be saved' }).toBe(EDITED);
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('session=');
  await page.reload();
  await expect(meanShapley(page, 'check')).toHaveText('1.000');
  await page.getByRole('tab', { name: /^Definition/ }).click();
  await expect(page.locator('[data-testid=definition-source] .cm-content')).toContainText('name: "check", inputs: ["draft"], cost: 1, run: () => "bad"');
});

test('a re-run that fails keeps the last good results, marked as from the previous code; Revert goes back to the code as opened', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'two-steps.pipeline.js', content: TWO_STEPS, type: 'text/javascript' }]);
  await waitForDone(page);
  await page.getByRole('tab', { name: /^Definition/ }).click();
  const content = page.locator('[data-testid=definition-source] .cm-content');

  // A working edit first, so the code analysed is no longer the code as opened.
  await replaceSource(page, EDITED);
  await page.getByTestId('definition-run').click();
  await page.getByRole('tab', { name: 'Batch' }).click();
  await waitForDone(page);
  await expect(meanShapley(page, 'check')).toHaveText('1.000');

  // Then a syntax error: the results of the working code stay, and say they are from it.
  await page.getByRole('tab', { name: /^Definition/ }).click();
  await replaceSource(page, BROKEN);
  await page.getByTestId('definition-run').click();
  await expect(page.getByTestId('definition-error')).toContainText('(line 4)');
  await expect(page.getByTestId('previous-code')).toContainText('from the previous code');
  await expect(page.getByTestId('definition-run')).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Export report' })).toBeEnabled();
  await page.getByRole('tab', { name: 'Batch' }).click();
  await expect(meanShapley(page, 'check')).toHaveText('1.000');
  await expect(page.getByText('No results yet')).toHaveCount(0);

  // Revert restores the code as opened (not the last edit), and re-running it analyses that code.
  await page.getByRole('tab', { name: /^Definition/ }).click();
  await page.getByTestId('definition-revert').click();
  await expect(content).toContainText('run: ({ draft }) => draft,');
  await expect(content).not.toContainText('"bad" +,');
  await expect(page.getByTestId('definition-revert')).toBeDisabled();
  await page.getByTestId('definition-run').click();
  await expect(page.getByTestId('previous-code')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Batch' }).click();
  await waitForDone(page);
  await expect(meanShapley(page, 'draft')).toHaveText('0.500');
});

test('a definition that throws while loading is shown at its file and line, and leaves no session in Recent sessions; what was stored stays', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'two-steps.pipeline.js', content: TWO_STEPS, type: 'text/javascript' }]);
  await waitForDone(page);
  const kept = await waitForStored(page, (s) => s.status === 'done');
  await goHome(page);

  const throwing = `const limit = 3;\nif (limit > 2) throw new Error("no API key set");\n${TWO_STEPS}`;
  await dropFiles(page, [{ name: 'throws.pipeline.js', content: throwing, type: 'text/javascript' }]);
  await expect(page.getByTestId('definition-error')).toContainText('no API key set');
  await expect(page.getByTestId('definition-error')).toContainText('throws.pipeline.js');
  await expect(page.getByTestId('definition-error')).toContainText('line 2');
  // Its address names no stored session: a reload says why it is not there.
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('This link names a session that is not in this browser');
  // It says why here, in the browser it was opened in, not only "opened elsewhere".
  await expect(page.getByRole('alert')).toContainText('a reload of one whose definition failed to load finds nothing kept');
  await expect(page.getByRole('alert')).toContainText('open the trace or definition again here');
  await expect(page.getByTestId('privacy-note')).toBeVisible();
  await expect(sessionRow(page, kept.id)).toBeVisible();
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  expect((await storedSummaries(page)).map((s) => s.id)).toEqual([kept.id]);
});
