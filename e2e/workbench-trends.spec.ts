import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Trends } from '../src/engine/trends.ts';
import { downloadedText, expect, test, waitForStored } from './fixtures.ts';
import { waitForDone } from './workbench-helpers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('trends: the view shows the command\u2019s numbers for the stored study, keeps its tags, is linkable and keyboard-driven', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./?workers=2#demo=refund-policy');
  await waitForDone(page);
  await waitForStored(page, (s) => s.status === 'done');

  await page.getByRole('tab', { name: 'Trends' }).click();
  await expect(page.getByTestId('trends-table')).toBeVisible();
  // Tag this study in the page; the tag is kept with its session.
  await page.getByTestId('meta-tags').fill('prod, model=gpt-4.1');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved with this study.')).toBeVisible();
  await page.getByTestId('trends-tag').selectOption('prod');
  await expect(page).toHaveURL(/view=trends.*trends=week.*trendsTag=prod|trendsTag=prod.*view=trends/);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-trends-e2e-'));
  const file = join(dir, 'refund.agentblame-session.json');
  writeFileSync(file, await downloadedText(await downloading));
  const command = JSON.parse(execFileSync(process.execPath, ['src/cli/blame.mjs', 'trend', file, '--tag', 'prod', '--json', '--no-digest-cache'], { cwd: ROOT, encoding: 'utf8' })) as { trends: Trends };
  expect(command.trends.headline).not.toBeNull();
  await expect(page.getByTestId('trends-headline')).toHaveText(command.trends.headline!);

  // The chart is reachable by keyboard; the arrows read the periods out.
  await page.getByTestId('trend-chart').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('trend-period')).toContainText(command.trends.periods[0].label);

  // A link reopens the same choice.
  await page.reload();
  await expect(page.getByTestId('trends-headline')).toHaveText(command.trends.headline!);
});
