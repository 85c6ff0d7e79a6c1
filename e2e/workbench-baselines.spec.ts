/**
 * The baselines panel beside the Shapley bars: each bar says its rate, and the panel's 100 % tick
 * is drawn whole. The refund demo has one failure: planner and retriever each repair it alone
 * (100 %), writer and reviewer do not (0 %), and the reviewer touched the answer last (1 of 1).
 */
import { expect, test } from '@playwright/test';
import { waitForDone } from './workbench-helpers.ts';

test('the baselines panel labels each bar with its rate and shows its 100 % tick whole', async ({ page }) => {
  await page.goto('./#demo=refund-policy');
  await waitForDone(page);
  await page.getByLabel('Show baselines beside Shapley').check();
  const chart = page.getByTestId('batch-bars');
  // Per step, largest blame first: fix alone, then last touch.
  await expect(chart.getByTestId('baseline-value')).toHaveText(['100.0 %', '0.0 %', '100.0 %', '0.0 %', '0.0 %', '0.0 %', '0.0 %', '100.0 %']);
  const box = (await chart.boundingBox())!;
  const inside = async (label: string, item: { boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null> }) => {
    const b = (await item.boundingBox())!;
    expect(b.x, label).toBeGreaterThanOrEqual(box.x);
    expect(b.x + b.width, label).toBeLessThanOrEqual(box.x + box.width);
    expect(b.y + b.height, label).toBeLessThanOrEqual(box.y + box.height);
  };
  const hundred = chart.locator('text.tick', { hasText: /^100 %$/ });
  await expect(hundred).toHaveCount(1);
  await inside('100 % tick', hundred);
  for (const [i, label] of (await chart.getByTestId('baseline-value').all()).entries()) await inside(`rate label ${i}`, label);
});
