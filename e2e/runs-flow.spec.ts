import { expect, test } from '@playwright/test';
import { tripExport } from '../src/app/replay/testing/trip-run.ts';
import { dropFiles } from './workbench-helpers.ts';

/**
 * The run view's waterfall: flow arrows for the "quotes" links of the replay's dependency graph
 * (trip-run.ts: the planner's plan is quoted by both researcher calls, the search result by the
 * second, its answer by the writer; the search tool is called by the first), toggled, with a
 * legend; and W / S zoom, A / D pan as in Perfetto, listed in the help, not while typing.
 */

test('flow arrows follow the quotes links, and W / S / A / D zoom and pan the waterfall', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
  const run = page.getByRole('region', { name: /^Run / });
  await expect(run).toBeVisible();

  // The arrows: quoted step -> quoting step, the same links the rows mark with "← N".
  const flows = run.getByRole('group', { name: 'Flow arrows' });
  await expect(flows.getByTestId('flow-legend')).toContainText('whose request quotes its answer or tool result');
  await expect(flows.getByLabel('Quote arrows')).toBeChecked();
  const arrows = run.getByTestId('flow-arrows').locator('path.flow');
  await expect(arrows).toHaveCount(5);
  const pairs = await arrows.evaluateAll((paths) => paths.map((p) => `${p.getAttribute('data-from')}>${p.getAttribute('data-to')}`));
  const options = run.getByRole('listbox', { name: 'Steps' }).getByRole('option');
  const stepOf = async (name: string, nth = 0) => Number(await options.locator('.name').filter({ hasText: new RegExp(`\\d ${name}$`) }).nth(nth).locator('.idx').innerText());
  const [planner, lookup, search, answer, writer] = [await stepOf('Planner chat'), await stepOf('Researcher chat', 0), await stepOf('search'), await stepOf('Researcher chat', 1), await stepOf('Writer chat')];
  expect(pairs.sort()).toEqual([`${planner}>${lookup}`, `${lookup}>${search}`, `${planner}>${answer}`, `${search}>${answer}`, `${answer}>${writer}`].sort());
  // The writer's row says it quotes the researcher's answer, as its arrow does.
  await expect(options.filter({ hasText: 'Writer chat' }).locator('.quotes')).toContainText(String(answer));
  // Each arrow starts and ends inside the waterfall's lane.
  const lane = await options.first().locator('.lane').boundingBox();
  for (const box of await arrows.evaluateAll((paths) => paths.map((p) => (p as SVGPathElement).getBoundingClientRect().toJSON() as { left: number; right: number }))) {
    expect(box.left).toBeGreaterThanOrEqual(lane!.x - 2);
  }

  // The selected step's arrows stand out.
  await options.filter({ hasText: 'Writer chat' }).click();
  await expect(run.locator(`path.flow.on[data-to="${writer}"]`)).toHaveCount(1);
  await expect(run.locator('path.flow.on')).toHaveCount(1);
  await run.screenshot({ path: test.info().outputPath('flow-arrows.png') });

  // Toggled off and on.
  await flows.getByLabel('Quote arrows').uncheck();
  await expect(run.getByTestId('flow-arrows')).toHaveCount(0);
  await flows.getByLabel('Quote arrows').check();
  await expect(arrows).toHaveCount(5);

  // W zooms in around the middle, D pans later, A earlier, S zooms out again (focus in the step list).
  const window = run.locator('.zoom .window');
  const whole = await window.innerText();
  expect(whole).toMatch(/^showing 0(?:\.00)? ms to (.+) of \1; W \/ S or Ctrl \+ wheel zoom, A \/ D or Shift \+ wheel pan$/);
  await options.filter({ hasText: 'Writer chat' }).click();
  await page.keyboard.press('w');
  await expect(window).not.toHaveText(whole);
  const zoomed = await window.innerText();
  expect(zoomed).not.toMatch(/^showing 0(?:\.00)? ms/);
  await page.keyboard.press('d');
  await expect(window).not.toHaveText(zoomed);
  const later = await window.innerText();
  await page.keyboard.press('a');
  await expect(window).toHaveText(zoomed);
  expect(later).not.toBe(zoomed);
  await page.keyboard.press('s');
  await expect(window).toHaveText(whole);
  await expect(run.getByRole('button', { name: 'Whole run' })).toBeDisabled();

  // Typing in a field types: no zoom.
  const find = run.getByRole('searchbox', { name: 'Find a step' });
  await find.click();
  await page.keyboard.type('wsad');
  await expect(find).toHaveValue('wsad');
  await expect(window).toHaveText(whole);

  // The help lists the keys.
  await options.first().click();
  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  await expect(help).toContainText('W / S');
  await expect(help).toContainText('Zoom the waterfall in / out (as in Perfetto)');
  await expect(help).toContainText('A / D');
});

test('on a phone the quote arrows and their legend fit, and W zooms', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./');
  await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
  const run = page.getByRole('region', { name: /^Run / });
  await expect(run.getByTestId('flow-arrows').locator('path.flow')).toHaveCount(5);
  await expect(run.getByRole('group', { name: 'Flow arrows' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const window = run.locator('.zoom .window');
  const whole = await window.innerText();
  await run.getByRole('listbox', { name: 'Steps' }).getByRole('option').first().click();
  await page.keyboard.press('w');
  await expect(window).not.toHaveText(whole);
});
