import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StudyComparison } from '../src/engine/compare-studies.ts';
import { formatInterval, formatNumber, formatSigned } from '../src/report/format.ts';
import { pointsText, rankText } from '../src/report/sections/compare.ts';
import { downloadedText, expect, test, waitForStored } from './fixtures.ts';
import { waitForDone } from './workbench-helpers.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The page's number formats (src/app/common/format.ts): three decimals, signed changes. */
const fixed3 = (x: number) => formatNumber(x, 3);
const signed = (x: number) => (x > 0 ? '+' : '') + fixed3(x);

async function exportSession(page: import('@playwright/test').Page): Promise<string> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export session' }).click();
  return downloadedText(await downloading);
}

test('compare two studies: the page shows the per-step and per-case differences the command computes, and exports them in the report', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-compare-'));

  // Study one: the stochastic RAG demo as recorded (200 cases, each its own world).
  await page.goto('./?workers=2#demo=stochastic-rag');
  await waitForDone(page);
  const recorded = await waitForStored(page, (s) => s.status === 'done');
  const earlierPath = join(dir, 'recorded.agentblame-session.json');
  writeFileSync(earlierPath, await exportSession(page));

  // Study two: the same trace in posterior mode, opened afresh (a new session).
  await page.goto('about:blank');
  await page.goto('./?workers=2#demo=stochastic-rag&mode=posterior&worlds=2');
  await waitForDone(page, 120_000);
  await waitForStored(page, (s) => s.status === 'done' && s.id !== recorded.id);
  const laterPath = join(dir, 'posterior.agentblame-session.json');
  writeFileSync(laterPath, await exportSession(page));

  await page.getByRole('tab', { name: 'Compare' }).click();
  const select = page.getByTestId('compare-select');
  // The choice names the other study's mode, method and size.
  await expect(select.locator('option', { hasText: 'recorded' })).toHaveText(/stochastic-rag · recorded · auto method · 200 cases/);
  await select.selectOption(recorded.id);
  await expect(page.getByTestId('compare-table')).toBeVisible();
  // The address names the compared session, so a link reopens the comparison.
  await expect(page).toHaveURL(new RegExp(`compare=${recorded.id}`));

  const command = JSON.parse(execFileSync(process.execPath, ['src/cli/blame.mjs', laterPath, '--compare', earlierPath, '--json'], { cwd: ROOT, encoding: 'utf8' })) as {
    compare: { against: string; comparison: StudyComparison };
  };
  const c = command.compare.comparison;
  // Posterior mode analyses the same failures (they fail as recorded), so the intervals pair them.
  expect(c.paired).toBe(true);
  expect(c.steps.length).toBeGreaterThan(1);
  for (const s of c.steps) {
    const row = page.locator(`[data-testid=compare-table] tr[data-step="${s.step}"]`);
    await expect(row.getByTestId('shapley-change')).toHaveText(signed(s.shapleyChange!));
    await expect(row.getByTestId('change-ci')).toHaveText(formatInterval(s.ci!, (end) => formatNumber(end, 3)));
    await expect(row.getByTestId('fix-alone-change')).toHaveText(pointsText(s.fixAloneChange));
    await expect(row.getByTestId('rank-change')).toHaveText(`${s.before!.rank} → ${s.after!.rank} ${rankText(s.rankChange)}`);
  }
  const moved = c.cases.filter((x) => x.movement > 0).slice(0, 10);
  expect(moved.length).toBeGreaterThan(0);
  await expect(page.locator('[data-testid=compare-cases] tbody tr')).toHaveCount(moved.length);
  for (const [i, x] of moved.entries()) {
    const row = page.locator('[data-testid=compare-cases] tbody tr').nth(i);
    await expect(row).toHaveAttribute('data-case', x.id);
    await expect(row.getByTestId('case-movement')).toHaveText(fixed3(x.movement));
  }

  // The report exported now carries the same comparison.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export report' }).click();
  const report = await downloadedText(await downloading);
  expect(report).toContain('id="compare"');
  for (const s of c.steps) expect(report).toContain(`data-v="${s.shapleyChange}">${formatSigned(s.shapleyChange!)}</td>`);

  // A reload (the link) reopens the comparison, with the other study chosen.
  await page.reload();
  await expect(page.getByTestId('compare-table')).toBeVisible();
  await expect(page.getByTestId('compare-select')).toHaveValue(recorded.id);

  // A case in the moved list opens that case.
  await page.locator('[data-testid=compare-cases] tbody tr').first().getByRole('button').click();
  await expect(page.getByRole('heading', { name: new RegExp(`Case ${moved[0].id}`) })).toBeVisible();
});

test('a demo compared with itself under other settings: keep a copy, change the mode here, compare with the copy', async ({ page }) => {
  await page.goto('./?workers=2');
  await page.getByRole('button', { name: /^Refund policy/ }).first().click();
  await waitForDone(page);
  const recorded = await waitForStored(page, (s) => s.status === 'done');
  await page.getByRole('tab', { name: 'Compare' }).click();
  await expect(page.getByText('No other session is stored yet')).toBeVisible();
  await page.getByRole('button', { name: 'Keep a copy to compare with' }).click();
  const select = page.getByTestId('compare-select');
  await expect(select.locator('option:checked')).toContainText('refund-policy (copy)');
  // The study changes in place; the copy keeps the recorded results.
  await page.getByLabel('Mode').selectOption('prior');
  await expect.poll(() => page.url()).toContain('mode=prior');
  await waitForDone(page);
  await waitForStored(page, (s) => s.id === recorded.id && s.status === 'done' && s.mode === 'prior');
  await page.getByRole('tab', { name: 'Compare' }).click();
  await expect(page.getByTestId('compare-summary')).toContainText('Changes from refund-policy (copy) (recorded');
});

test('two studies of different pipelines: no empty chart of ticks, a note that they share no step', async ({ page }) => {
  await page.goto('./?workers=2');
  await page.getByRole('button', { name: /^Refund policy/ }).first().click();
  await waitForDone(page);
  await waitForStored(page, (s) => s.status === 'done');
  await page.goto('./?workers=1#demo=order-desk');
  await waitForDone(page);
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByTestId('compare-select').selectOption({ index: 1 });
  await expect(page.getByTestId('compare-summary')).toContainText('Changes from refund-policy');
  await expect(page.getByTestId('compare-no-shared-step')).toContainText('no step in common');
  await expect(page.locator('.chart-figure')).toHaveCount(0);
  // A study of the same pipeline still draws its chart.
  await page.getByRole('button', { name: 'Keep a copy to compare with' }).click();
  await expect(page.locator('.chart-figure svg')).toBeVisible();
  await expect(page.getByTestId('compare-no-shared-step')).toHaveCount(0);
});
