/**
 * Keyboard only: open a demo, go to the cases, open one, move to the next, export the report, and
 * the `?` help with the shortcuts and the glossary; focus follows each move.
 */
import { expect, test } from '@playwright/test';
import { waitForDone } from './workbench-helpers.ts';

test('a keyboard-only path: open, cases, case, next case, export; ? shows the help', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: /Eight-step agent/ }).focus();
  await page.keyboard.press('Enter');
  await waitForDone(page, 120_000);
  // Focus left <body> for the new study's view.
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');

  await page.keyboard.press('2');
  await expect(page.getByTestId('case-list')).toBeVisible();
  await page.keyboard.press('j');
  const first = page.getByTestId('case-detail').getByRole('heading', { level: 2 });
  await expect(first).toBeFocused();
  const firstName = await first.innerText();
  await page.keyboard.press('j');
  await expect(page.getByTestId('case-detail').getByRole('heading', { level: 2 })).not.toHaveText(firstName);
  await expect(page.getByTestId('case-detail').getByRole('heading', { level: 2 })).toBeFocused();
  await page.keyboard.press('k');
  await expect(page.getByTestId('case-detail').getByRole('heading', { level: 2 })).toHaveText(firstName);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('case-list')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.keyboard.press('e');
  expect((await download).suggestedFilename()).toMatch(/\.html$/);

  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  await expect(help).toBeVisible();
  await expect(help).toContainText('Next / previous case');
  await expect(help).toContainText('anytime-valid');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  // Typing in a field is never a shortcut.
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox')).toBeFocused();
  await page.keyboard.type('j2');
  await expect(page.getByRole('searchbox')).toHaveValue('j2');
  await expect(page.getByTestId('case-list').or(page.getByText('No case matches this filter.'))).toBeVisible();
});

test('typing in the definition editor (inside a shadow root) never fires a shortcut', async ({ page }) => {
  await page.goto('./?workers=1');
  await page.getByRole('button', { name: /^Refund policy(?!, mechanism)/ }).click();
  await waitForDone(page, 120_000);
  await page.getByRole('tab', { name: /^Definition/ }).click();
  const content = page.locator('[data-testid=definition-source] .cm-content');
  await expect(content).toBeVisible();
  let chooser = false;
  let downloaded = false;
  page.on('filechooser', () => (chooser = true));
  page.on('download', () => (downloaded = true));
  await content.click();
  await page.keyboard.press('ControlOrMeta+End');
  // Every single-key shortcut, and the words the issue lost letters from.
  const typed = '// hello world oejk123456789/?';
  await page.keyboard.type(typed);
  await page.keyboard.press('Escape');
  await expect(content).toContainText(typed);
  await expect(page.getByRole('tab', { name: /^Definition/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('help-overlay')).toHaveCount(0);
  await expect(page.getByTestId('definition-run')).toBeEnabled();
  expect(chooser).toBe(false);
  expect(downloaded).toBe(false);
});
