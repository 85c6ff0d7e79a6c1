/**
 * The settings' dropdowns show their options whole: each option's text fits the select's width
 * beside its arrow, at the default width and on a phone. A select's scrollWidth never exceeds its
 * clientWidth whatever the text, so the text is measured with the select's own font.
 */
import { expect, test } from '@playwright/test';
import { waitForDone } from './workbench-helpers.ts';

/** Room Chromium's dropdown arrow takes at the right of a select (a little more than it draws). */
const ARROW = 24;

for (const [name, size] of [['the default width', { width: 1280, height: 720 }], ['a 390 px phone', { width: 390, height: 844 }]] as const) {
  test(`every settings dropdown shows its options whole at ${name}`, async ({ page }) => {
    await page.setViewportSize(size);
    // Monte Carlo shows the estimator, stop rule and interval dropdowns too; the refund demo's retriever offers two fixes.
    await page.goto('./#demo=refund-policy&method=mc&stop=width');
    await waitForDone(page);
    await page.getByRole('complementary', { name: 'Settings' }).locator('summary').evaluate((s) => ((s.parentElement as HTMLDetailsElement).open = true));
    const selects = page.getByRole('complementary', { name: 'Settings' }).locator('select');
    expect(await selects.count()).toBeGreaterThanOrEqual(7);
    const cut = await selects.evaluateAll((list, arrow) => {
      const context = document.createElement('canvas').getContext('2d')!;
      return (list as HTMLSelectElement[]).flatMap((select) => {
        const style = getComputedStyle(select);
        context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
        return [...select.options].filter((o) => context.measureText(o.text).width > room).map((o) => `${select.id}: "${o.text}" is ${Math.ceil(context.measureText(o.text).width)} px in ${Math.floor(room)} px`);
      });
    }, ARROW);
    expect(cut).toEqual([]);
  });
}
