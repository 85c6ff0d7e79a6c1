import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlameRise } from '../src/engine/regression/verdict.ts';
import { SUPPORT_DESK_CASES_FILE, supportDeskAfter, supportDeskBefore } from '../src/regression/testing/support-desk.ts';
import { expect, test } from './fixtures.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The later support desk with its cases inline, so the page opens it on its own (src/cli/regression.test.ts). */
const laterWithCases = supportDeskAfter().replace('  metric: (outputs, inputs)', `  cases: ${readFileSync(SUPPORT_DESK_CASES_FILE, 'utf8')},\n  metric: (outputs, inputs)`);

test('compare with an earlier version: the page blames the changed steps for the new failures as the command does', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-earlier-'));
  const laterPath = join(dir, 'support-desk.pipeline.js');
  const earlierPath = join(dir, 'support-desk-v1.pipeline.js');
  writeFileSync(laterPath, laterWithCases);
  writeFileSync(earlierPath, supportDeskBefore());

  await page.goto('./?workers=2');
  await dropFiles(page, [{ name: 'support-desk.pipeline.js', content: laterWithCases, type: 'text/javascript' }]);
  await waitForDone(page);
  await page.getByRole('tab', { name: 'Compare' }).click();

  // A file that is no definition: the refusal names it, and the open study stays.
  await page.getByTestId('earlier-file').setInputFiles({ name: 'notes.js', mimeType: 'text/javascript', buffer: Buffer.from('const x = 1;\n') });
  await expect(page.getByTestId('earlier-problem')).toContainText('notes.js');
  await expect(page.getByTestId('regression-lead')).toHaveCount(0);

  await page.getByTestId('earlier-file').setInputFiles(earlierPath);
  await expect(page.getByTestId('regression-lead')).toContainText('changes: “retriever” (changed), “writer” (changed)');
  await waitForDone(page);
  await expect(page.getByTestId('regression-table')).toBeVisible();

  const command = JSON.parse(execFileSync(process.execPath, ['src/cli/blame.mjs', laterPath, '--against', earlierPath, '--json'], { cwd: ROOT, encoding: 'utf8' })) as {
    regression: { newFailures: string[]; stillFailing: string[]; fixed: string[]; changes: BlameRise[] };
  };
  // The gate exits 1 on a regression.
  const gated = JSON.parse(spawnSync(process.execPath, ['src/cli/blame.mjs', laterPath, '--against', earlierPath, '--gate', '--json'], { cwd: ROOT, encoding: 'utf8' }).stdout) as { gate: { verdict: string } };
  const changes = command.regression.changes;
  expect(changes.map((c) => c.step).sort()).toEqual(['retriever', 'writer']);
  const byRise = [...changes].sort((a, b) => b.rise - a.rise);
  // The changed step the command blames most is blamed first here, with the same values.
  expect(byRise[0].step).toBe('retriever');
  expect(byRise[0].rise).toBeGreaterThan(byRise[1].rise);
  await expect(page.locator('[data-testid=regression-table] tbody tr').first()).toHaveAttribute('data-step', 'retriever');
  for (const c of changes) {
    const row = page.locator(`[data-testid=regression-table] tr[data-step="${c.step}"]`);
    const shown = Number(await row.getByTestId('regression-rise').getAttribute('data-value'));
    expect(shown).toBeCloseTo(c.rise, 12);
  }
  await expect(page.getByTestId('regression-counts')).toContainText(`${command.regression.newFailures.length} new failure`);
  // The earlier version ran on the cases passing now: the same fixed cases, and the gate's verdict line.
  await expect(page.getByTestId('regression-counts')).toContainText(`${command.regression.fixed.length} fixed by the change`);
  await expect(page.getByTestId('regression-verdict')).toHaveText(gated.gate.verdict);
  // The same sentence as the command's, from the same engine function.
  const pct = (x: number) => `${Math.round(100 * x)} %`;
  const retriever = byRise[0];
  await expect(page.getByTestId('regression-sentences')).toContainText(`the "retriever" change causes ${pct(retriever.share ?? 0)} of the new failures; reverting it alone fixes ${pct(retriever.fixAloneRate ?? 0)}`);
});
