import { expect, test } from '@playwright/test';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { scripted } from '../src/app/replay/testing/trip-run.ts';
import { blameTrip } from './replay-helpers.ts';

/**
 * The Replay view's "Recorded beside replayed" on a phone: the museum run (trip-run.ts) blamed
 * against a scripted loopback model; every fix re-asks each model turn, the researcher now reads
 * the page right and the writer picks Monday. Changed turns show their texts as a diff, the
 * unchanged search turn folds, and everything is reached by keyboard without a sideways scroll.
 */

const PORT = Number(process.env.E2E_PORT ?? 4173) + 7;

test.use({ viewport: { width: 390, height: 844 } });

test('recorded beside replayed at phone size: changed turns diffed, the unchanged one folded, all by keyboard', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted, port: PORT });
  try {
    await blameTrip(page, endpoint.url);
    await page.getByRole('tab', { name: 'Replay' }).click();
    const view = page.getByRole('group', { name: 'Recorded beside replayed' });
    await expect(view).toBeVisible();
    // The repair first: the researcher's answer alone reaches the outcome (no repair search needed).
    await expect(view.getByLabel('Replay of')).toHaveValue('repair');
    await expect(view.getByLabel('Replay of').locator('option')).toHaveText(['The repair: 6 Researcher alone', 'Every fix (4 steps)', '2 Planner: its fix alone', '4 Researcher: its fix alone', '6 Researcher: its fix alone', '8 Writer: its fix alone']);
    await expect(view.getByRole('status')).toHaveText('2 of 5 turns changed');
    await view.getByLabel('Replay of').selectOption('all');
    // Five turns: four model turns re-asked (each with the repair note), the search tool kept.
    await expect(view.getByRole('status')).toHaveText('4 of 5 turns changed');

    // The researcher's answer: the misreading struck on the recorded side, the right reading marked on the replayed one.
    const answer = view.getByRole('group', { name: /^Answer of step \d+$/ }).filter({ hasText: 'closed on Mondays' });
    await expect(answer.locator('[data-side=recorded] del')).toContainText('closed on Mondays');
    await expect(answer.locator('[data-side=replayed] ins')).toContainText('every day of the week');
    // The writer follows it.
    await expect(view.getByRole('group', { name: /^Answer of step \d+$/ }).filter({ hasText: 'Visit on Monday' }).locator('ins')).toContainText('Monday');
    // The planner answered the same: its answer is not diffed, its request is (the repair note).
    await expect(view.getByText('Same answer as recorded.').first()).toBeVisible();

    // The unchanged search turn is folded; Tab reaches the fold and Enter opens it.
    const fold = view.getByRole('button', { name: /^1 unchanged turn \(step \d+\)$/ });
    await expect(fold).toBeVisible();
    await fold.focus();
    await page.keyboard.press('Enter');
    await expect(fold).toHaveCount(0);
    await expect(view.locator('li.turn').filter({ hasText: 'kept as recorded' })).toContainText('search');
    await view.getByRole('button', { name: 'Fold unchanged turns' }).press('Enter');
    await expect(view.getByRole('button', { name: /^1 unchanged turn/ })).toBeVisible();

    // A request opens from the keyboard: the recorded context with the recorded answer and the note added.
    // Requests are built only when opened.
    await expect(view.getByRole('group', { name: /^Request of step \d+$/ })).toHaveCount(0);
    const summary = view.locator('summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(view.getByText('2 messages recorded, 4 sent.')).toBeVisible();
    const request = view.getByRole('group', { name: /^Request of step \d+$/ }).first();
    await expect(request.locator('[data-side=replayed] ins')).toContainText('may be wrong');
    await expect(request.locator('[data-side=recorded] del')).toHaveCount(0);

    // The researcher's answer fixed alone: it and the writer change; the three turns before fold.
    await view.getByLabel('Replay of').focus();
    await view.getByLabel('Replay of').selectOption('alone:6 Researcher');
    await expect(view.getByRole('status')).toHaveText('2 of 5 turns changed');
    await expect(view.getByRole('button', { name: /^3 unchanged turns \(steps \d+ to \d+\)$/ })).toBeVisible();
    await expect(view.locator('li.turn')).toHaveCount(2);

    // Nothing needs a sideways scroll on the phone.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(390);
    await view.screenshot({ path: test.info().outputPath('factual-replayed-phone.png') });
    expect(endpoint.requests.length).toBeGreaterThan(0);
  } finally {
    await endpoint.close();
  }
});
