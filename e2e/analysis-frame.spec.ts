/**
 * The analysis frame (public/analysis-frame.html), which starts the page's workers in sandboxed
 * frames: one that does not load in time must not leave the tab without workers for good.
 */
import { expect, test } from '@playwright/test';
import { demoFile, dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

// Requests a service worker answers are not routed; this test routes the frame's.
test.use({ serviceWorkers: 'block' });

test('a frame that does not load in time is replaced: the next analysis gets working workers', async ({ page }) => {
  test.setTimeout(150_000);
  let frameRequests = 0;
  await page.route('**/analysis-frame.html', async (route) => {
    frameRequests++;
    // The first load never answers (a host that hangs); later ones are served.
    if (frameRequests === 1) return;
    await route.continue();
  });
  // Not waiting for the load event, which the hanging frame holds back.
  await page.goto('./?workers=1', { waitUntil: 'domcontentloaded' });
  // The workers start at once; the frame's start limit (30 s) passes without an answer.
  await page.waitForTimeout(32_000);
  expect(frameRequests).toBe(1);
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page, 60_000);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  expect(frameRequests).toBe(2);
});
