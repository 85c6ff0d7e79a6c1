import { type Browser, expect, test } from '@playwright/test';
import { HOSTILE_STRINGS, LONG_HOSTILE, hostileSession } from '../src/report/fixtures/hostileSession.ts';
import { renderReport, reportFileName } from '../src/report/index.ts';
import { launchChromium, openOffline, saveReport } from './report-helpers.ts';

/**
 * Hostile strings in every field, opened in Chromium with JavaScript ON, so any injected script or
 * handler would run. The report is checked twice: as exported, and with its CSP removed, so the
 * escaping is tested on its own and not only the policy that would block an escape.
 */
let browser: Browser;
const session = hostileSession();
const fixes = session.results[0].players.map((step, i) => ({ step, fix: HOSTILE_STRINGS[(i + 3) % HOSTILE_STRINGS.length] }));
const exported = renderReport(session, { fixes, maxBytes: 50_000_000 });
const withoutCsp = exported.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
const SHORT = HOSTILE_STRINGS.filter((s) => s !== LONG_HOSTILE);

test.beforeAll(async () => {
  browser = await launchChromium();
});
test.afterAll(async () => {
  await browser.close();
});

for (const [label, html] of [['as exported', exported], ['with the CSP removed', withoutCsp]] as const) {
  test(`nothing from the data runs and every string shows literally (${label})`, async () => {
    expect(html === exported || !html.includes('Content-Security-Policy')).toBe(true);
    const url = saveReport(html, reportFileName(session.name));
    const { context, page, requests, problems } = await openOffline(browser, url, { javaScriptEnabled: true });
    // Open every case so any markup inside them is live.
    await page.getByRole('button', { name: 'Expand all' }).click();

    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('img, a, iframe, object, embed, textarea, [onerror], [onload], [href], [src], [style]').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(await page.locator('style').count()).toBe(1);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);

    await expect(page).toHaveTitle(`${session.name} · agentblame report`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(session.name);
    const facts = await page.locator('header .facts dd').allTextContents();
    expect(facts).toContain(session.fileName);
    expect(facts).toContain(session.pipeline!.name);

    const caseIds = await page.locator('.case-id').allTextContents();
    for (const id of SHORT) expect(caseIds).toContain(id);
    expect(caseIds.some((id) => id.startsWith(`${'A'.repeat(300)}… (`))).toBe(true);

    const fixCells = await page.locator('#fixes tbody td').allTextContents();
    for (const { step, fix } of fixes.filter((f) => f.step !== LONG_HOSTILE)) {
      expect(fixCells).toContain(step);
      expect(fixCells).toContain(fix.length > 300 ? `${fix.slice(0, 300)}… (${fix.length - 300} more characters)` : fix);
    }

    // Outputs (strings as they are, objects as JSON) and error messages come through as text.
    const outputs = await page.locator('details.case pre').allTextContents();
    for (const hostile of SHORT) expect(outputs).toContain(hostile);
    expect(outputs).toContain(JSON.stringify({ text: HOSTILE_STRINGS[2] }, null, 2));
    await expect(page.locator('.warning').filter({ hasText: 'Could not analyse this case' })).toContainText(
      `step ${HOSTILE_STRINGS[1]} threw ${HOSTILE_STRINGS[0]} in case ${HOSTILE_STRINGS[5]}`,
    );

    // The filter (script) treats the data as text too.
    await page.getByRole('searchbox', { name: 'Filter cases' }).fill('<img src=x');
    await expect(page.locator('details.case:visible')).not.toHaveCount(0);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });
}
