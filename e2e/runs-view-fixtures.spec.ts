/**
 * The run view on files of our own (src/formats/recorded/fixtures, no ../shared needed): a folder's
 * worth of files with non-traces beside them (skipped and listed), runs in natural order, Find in
 * message content (and saying when nothing matches), zoom and pan on the waterfall's time ruler,
 * and a help that lists only the keys that work there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFiles } from './workbench-helpers.ts';

const FIXTURES = join(import.meta.dirname, '../src/formats/recorded/fixtures');

function fixture(path: string, name = path) {
  return { name, content: readFileSync(join(FIXTURES, path), 'utf8'), type: 'application/json' };
}

/** Who&When-style logs named 1, 2 and 10, so the list must sort them as numbers. */
function log(n: number) {
  const base = JSON.parse(readFileSync(join(FIXTURES, 'whowhen/hand/7.json'), 'utf8')) as Record<string, unknown>;
  return { name: `${n}.json`, content: JSON.stringify({ ...base, question_ID: `q${n}` }), type: 'application/json' };
}

test('a folder with files that are not traces opens the runs, in natural order, and lists what was skipped', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [log(10), fixture('agno-vercel.langfuse.chatml.json'), log(2), fixture('whowhen/package.json', 'package.json'), log(1)]);
  const list = page.getByRole('region', { name: 'Runs' });
  await expect(list).toContainText('3 runs');
  await expect(list.getByRole('listitem').locator('.name button')).toHaveText(['1', '2', '10']);
  const skipped = page.getByRole('alert');
  await expect(skipped).toContainText('2 files skipped');
  await expect(skipped).toContainText('agno-vercel.langfuse.chatml.json');
  await expect(skipped).toContainText('package.json');
});

test('Find searches message content and says when nothing matches; the waterfall zooms and pans', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [fixture('agno-vercel.langfuse.trace.json')]);
  const run = page.getByRole('region', { name: /^Run / });
  await expect(run).toContainText('7 steps');
  const find = run.getByRole('searchbox', { name: 'Find a step' });
  await find.fill('Within 30 days');
  await run.getByRole('button', { name: 'Next match' }).click();
  await expect(run.getByRole('status')).toContainText('found in its messages');
  await find.fill('no step says this');
  await run.getByRole('button', { name: 'Next match' }).click();
  await expect(run.getByRole('status')).toContainText('Nothing matches "no step says this"');

  const toolbar = run.getByRole('toolbar', { name: 'Waterfall time' });
  await expect(toolbar).toContainText('showing 0.00 ms to 2.00 s of 2.00 s');
  await toolbar.getByRole('button', { name: 'Zoom in' }).click();
  await toolbar.getByRole('button', { name: 'Zoom in' }).click();
  await expect(toolbar).toContainText('of 2.00 s');
  await expect(toolbar).not.toContainText('showing 0.00 ms to 2.00 s');
  const before = await toolbar.locator('.window').textContent();
  await toolbar.getByRole('button', { name: 'Later' }).click();
  await expect(toolbar.locator('.window')).not.toHaveText(before ?? '');
  await toolbar.getByRole('button', { name: 'Whole run' }).click();
  await expect(toolbar).toContainText('showing 0.00 ms to 2.00 s of 2.00 s');
});

test('the Find field shows its whole placeholder at desktop width', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await dropFiles(page, [fixture('agno-vercel.langfuse.trace.json')]);
  const field = page.getByRole('region', { name: /^Run / }).getByRole('searchbox', { name: 'Find a step' });
  await expect(field).toBeVisible();
  const [text, room] = await field.evaluate((input: HTMLInputElement) => {
    // The placeholder's text measured in the input's font, against the input's content box.
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(input).font;
    probe.style.position = 'absolute';
    probe.style.whiteSpace = 'pre';
    probe.textContent = input.placeholder;
    document.body.append(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    const style = getComputedStyle(input);
    return [width, input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)];
  });
  expect(text).toBeLessThanOrEqual(room);
});

test('the help in the run view lists only the keys that work there', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [fixture('refund-bot.runtape.jsonl')]);
  await expect(page.getByRole('region', { name: /^Run / })).toBeVisible();
  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  await expect(help).toContainText('Previous / next step');
  await expect(help).not.toContainText('Next / previous case');
  await expect(help).not.toContainText('Export the report');
});

test('the run list, a run and a step have an address; Back and Forward move between them', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [log(1), log(2), log(10)]);
  const list = page.getByRole('region', { name: 'Runs' });
  await expect(list).toContainText('3 runs');
  await expect(page).toHaveURL(/#runs$/);
  await list.getByRole('button', { name: '2', exact: true }).click();
  const run = page.getByRole('region', { name: /^Run / });
  await expect(run).toBeVisible();
  await expect(page).toHaveURL(/#runs\/2\/0$/);
  await run.getByRole('listbox', { name: 'Steps' }).getByRole('option').nth(3).click();
  await expect(page).toHaveURL(/#runs\/2\/3$/);
  await page.goBack();
  await expect(page).toHaveURL(/#runs$/);
  await expect(page.getByRole('region', { name: 'Runs' })).toContainText('3 runs');
  await page.goForward();
  await expect(page).toHaveURL(/#runs\/2\/3$/);
  await expect(page.getByRole('article', { name: /^Step / })).toContainText('3. WebSurfer');
});

test('an address naming a run whose file is not kept in this browser says so plainly and offers to open it', async ({ page }) => {
  await page.goto('./#runs/hand%2F12/4');
  await expect(page.getByText('This address names the run "hand/12", whose file is not kept in this browser: it was opened in another browser, or removed from this one. Open the file to see it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open the file…' })).toBeVisible();
});

test('a run of one step says "1 step"', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [fixture('tool-call.attrs.json')]);
  const run = page.getByRole('region', { name: /^Run / });
  await expect(run.locator('span').filter({ hasText: /^1 steps?$/ })).toHaveText('1 step');
});
