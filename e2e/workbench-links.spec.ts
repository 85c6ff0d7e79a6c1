/**
 * Links and demos as a new user meets them: a link to a study stored in another browser says
 * where the study lives and offers to open its file; a demo opened twice is one session.
 */
import { expect, storedSummaries, test } from './fixtures.ts';
import { goHome } from './fixtures.ts';
import { waitForDone } from './workbench-helpers.ts';

test('a link to a session stored elsewhere says so and offers to open a session or report file', async ({ page }) => {
  await page.goto('./#session=0b7c2f1e-5a8d-4c3e-9f21-7d6e5c4b3a29');
  const banner = page.getByRole('alert').filter({ hasText: 'not in this browser' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('kept only in the browser where it was opened');
  const chooser = page.waitForEvent('filechooser');
  await banner.getByTestId('notice-action').click();
  await chooser;
});

test('opening a demo again reopens its session instead of adding another entry to Recent sessions', async ({ page }) => {
  await page.goto('./?workers=1');
  await page.getByRole('button', { name: /^Refund policy(?!, mechanism)/ }).click();
  await waitForDone(page);
  await expect.poll(async () => (await storedSummaries(page)).length).toBe(1);
  await goHome(page);
  await page.getByRole('button', { name: /^Refund policy(?!, mechanism)/ }).click();
  await waitForDone(page);
  await goHome(page);
  await page.getByRole('button', { name: /^Refund policy(?!, mechanism)/ }).click();
  await waitForDone(page);
  expect((await storedSummaries(page)).length).toBe(1);
});
