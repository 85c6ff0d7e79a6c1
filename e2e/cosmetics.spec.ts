/**
 * Layout at the sizes people use: the waterfall's time-ruler labels are neither clipped nor
 * overlapping (phone and desktop, whole run and zoomed), the header keeps one row at 1400 px with a
 * long file name, and the replay setup's fix column is reached on a phone without a sideways scroll.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { tripExport } from '../src/app/replay/testing/trip-run.ts';
import { dropFiles, twoPlayerGameFile, waitForDone } from './workbench-helpers.ts';

type Box = { x: number; y: number; width: number; height: number };

async function boxes(locator: Locator): Promise<Box[]> {
  return locator.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as Box));
}

/** Every ruler label lies inside the ruler and apart from the next one; at least `least` are shown. */
async function expectRulerReadable(page: Page, size: string, least: number) {
  const ruler = page.locator('.ruler');
  const [area] = await boxes(ruler);
  const labels = await boxes(ruler.locator('.tick'));
  expect(labels.length, `labels at ${size}`).toBeGreaterThanOrEqual(least);
  for (const b of labels) {
    expect(b.x, `a label starts inside the ruler at ${size}`).toBeGreaterThanOrEqual(area.x - 0.5);
    expect(b.x + b.width, `a label ends inside the ruler at ${size}`).toBeLessThanOrEqual(area.x + area.width + 0.5);
  }
  const sorted = [...labels].sort((a, b) => a.x - b.x);
  for (let k = 1; k < sorted.length; k++) expect(sorted[k].x, `labels apart at ${size}`).toBeGreaterThanOrEqual(sorted[k - 1].x + sorted[k - 1].width);
}

async function openTrip(page: Page) {
  await page.goto('./');
  await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
  await expect(page.getByRole('region', { name: /^Run / })).toBeVisible();
}

for (const size of [{ width: 390, height: 844 }, { width: 1400, height: 900 }]) {
  test(`the time ruler's labels are whole and apart at ${size.width} px, whole run and zoomed`, async ({ page }) => {
    await page.setViewportSize(size);
    await openTrip(page);
    await expectRulerReadable(page, `${size.width} px`, 2);
    await page.getByRole('toolbar', { name: 'Waterfall time' }).getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('toolbar', { name: 'Waterfall time' }).getByRole('button', { name: 'Later' }).click();
    // A phone's lane is about 90 px wide: a zoomed window may have room for one round time only.
    await expectRulerReadable(page, `${size.width} px, zoomed`, size.width < 600 ? 1 : 2);
  });
}

test("a step row's badges (the baselines' picks, an error) are whole at 1400 px and on a phone, before its model and latency", async ({ page }) => {
  for (const size of [{ width: 1400, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.goto('./');
    await dropFiles(page, [{ name: 'multiply.langfuse.json', content: readFileSync('docs/examples/replay/multiply.langfuse.json', 'utf8'), type: 'application/json' }]);
    const row = page.getByRole('listbox', { name: 'Steps' }).getByRole('option').filter({ hasText: 'Reporter chat' });
    const mark = row.locator('.mark', { hasText: 'last step' });
    await expect(mark).toBeVisible();
    const [meta] = await boxes(row.locator('.meta'));
    const [badge] = await boxes(mark);
    expect(badge.x + badge.width, `the badge ends inside its cell at ${size.width} px`).toBeLessThanOrEqual(meta.x + meta.width + 0.5);
  }
});

test('the header keeps one row at 1400 px with a long file name, which ends in an ellipsis and is whole in its title', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('./');
  const name = `${'a-very-long-experiment-name-'.repeat(6)}final.game.json`;
  await dropFiles(page, [twoPlayerGameFile(name, [0, 1, 0, 1])]);
  await waitForDone(page);
  const header = page.locator('header.top');
  const file = header.locator('.file');
  await expect(file).toHaveAttribute('title', name);
  const [brand] = await boxes(header.locator('.brand'));
  const [actions] = await boxes(header.locator('.actions'));
  expect(Math.abs(brand.y + brand.height / 2 - (actions.y + actions.height / 2)), 'brand and actions on one row').toBeLessThan(4);
  expect(await file.evaluate((el) => el.scrollWidth > el.clientWidth), 'the name is cut with an ellipsis').toBe(true);
});

test("the replay setup's fix column is reached on a phone without a sideways scroll", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openTrip(page);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  const fixes = setup.getByRole('textbox', { name: /^Fix of step / });
  await expect(fixes.first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const scroll = setup.locator('.scroll');
  expect(await scroll.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the table does not scroll sideways').toBe(true);
  for (const b of await boxes(fixes)) {
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(390);
    expect(b.width, 'wide enough to type in').toBeGreaterThan(250);
  }
  await fixes.first().fill('repair');
  await expect(fixes.first()).toHaveValue('repair');
});

test('numbers carry one minus sign (U+2212) in every view of a study with negative blame', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('./?trace=demos/stochastic-rag.trace.json');
  await waitForDone(page, 120_000);
  let minus = 0;
  for (const tab of ['Batch', /^Cases/, 'Audit']) {
    await page.getByRole('tab', { name: tab }).first().click();
    if (tab === 'Audit') await expect(page.getByRole('tabpanel')).toContainText(/signal/i);
    const text = await page.locator('main').innerText();
    // A hyphen-minus right before a digit, not inside a word, a date or a name like gpt-4.
    expect(text.match(/(?<![\p{L}\p{N}._\-/])-\d[\d.,]*/gu) ?? [], `hyphen-minus numbers in ${String(tab)}`).toEqual([]);
    minus += text.split('\u2212').length - 1;
  }
  // The first case's detail too (its waterfall and coalition table).
  await page.getByRole('tab', { name: /^Cases/ }).click();
  await page.getByTestId('case-list').locator('tbody th button').first().click();
  await expect(page.getByRole('tab', { name: /^Case / })).toBeVisible();
  const detail = await page.locator('main').innerText();
  expect(detail.match(/(?<![\p{L}\p{N}._\-/])-\d[\d.,]*/gu) ?? []).toEqual([]);
  expect(minus + detail.split('\u2212').length - 1, 'the negative values are shown with U+2212').toBeGreaterThan(0);
});

test('a refused envelope names the nearest format and what it lacks, not every format', async ({ page }) => {
  await page.goto('./');
  const envelope = { resource_spans: [{ resource: {}, scope_spans: [{ scope: { name: 'x' }, spans: [] }] }] };
  await dropFiles(page, [{ name: 'envelope.json', content: JSON.stringify(envelope), type: 'application/json' }]);
  const alert = page.getByRole('alert').filter({ hasText: 'envelope.json' });
  await expect(alert).toContainText('looks like an OTLP request envelope but has no resourceSpans[].scopeSpans[].spans');
  await expect(alert).toContainText('resource_spans for resourceSpans');
  await expect(alert).not.toContainText('this reads:');
});

test("a step's parent chain of long dotted span names stays inside the detail column at 1400 px", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('./');
  const trace = '0af7651916cd43dd8448eb211c80319c';
  const long = 'a2a.server.request_handlers.default_request_handler.DefaultRequestHandler._setup_message_execution';
  const span = (n: number, name: string, parent: number | null) => ({
    traceID: trace,
    spanID: n.toString(16).padStart(16, '0'),
    operationName: name,
    references: parent === null ? [] : [{ refType: 'CHILD_OF', traceID: trace, spanID: parent.toString(16).padStart(16, '0') }],
    startTime: 1_771_000_000_000_000 + n * 1000,
    duration: 100_000 - n * 1000,
    tags: [],
    logs: [],
    processID: 'p1',
  });
  const spans = [span(1, 'POST /', null), span(2, long, 1), span(3, `${long}_again`, 2), span(4, 'openai.chat', 3)];
  await dropFiles(page, [{ name: 'chain.jaeger.json', content: JSON.stringify({ data: [{ traceID: trace, spans, processes: { p1: { serviceName: 's', tags: [] } } }] }), type: 'application/json' }]);
  await page.getByRole('listbox', { name: 'Steps' }).getByRole('option').filter({ hasText: 'openai.chat' }).click();
  const chain = page.getByRole('navigation', { name: 'Parent chain' });
  await expect(chain).toContainText(long);
  const [column] = await boxes(page.locator('.detail'));
  for (const b of await boxes(chain.locator('button, span'))) expect(b.x + b.width, 'inside the detail column').toBeLessThanOrEqual(column.x + column.width + 0.5);
});
