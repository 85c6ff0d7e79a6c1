import { expect, test } from '@playwright/test';
import { dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

/**
 * Issue 10 in the page: work a case leaves behind (an unhandled rejection, a promise chain that
 * never ends) is that case's error, never the next case's; steps named after Object.prototype
 * members keep their values.
 */
const DEFERRED_DEFINITION = `export default {
  name: "deferred",
  steps: [
    { name: "a", inputs: ["x"], cost: 1,
      run: ({ x }) => {
        if (x === "reject") Promise.reject(new Error("late"));
        if (x === "spin") Promise.resolve().then(function again() { return Promise.resolve().then(again); });
        return "bad";
      },
      fixes: [{ name: "f", cost: 1, run: () => "ok" }] },
  ],
  metric: (outputs) => (outputs.a === "ok" ? 1 : 0),
  cases: [
    { id: "c1", inputs: { x: "q" } }, { id: "c2", inputs: { x: "reject" } },
    { id: "c3", inputs: { x: "q" } }, { id: "c4", inputs: { x: "spin" } }, { id: "c5", inputs: { x: "q" } },
  ],
};
`;

const PROTOTYPE_NAMES_DEFINITION = `const names = ["__proto__", "constructor", "hasOwnProperty", "toString"];
export default {
  name: "prototype-names",
  steps: names.map((name, i) => ({ name, inputs: i === 0 ? ["x"] : [names[i - 1]], cost: 1, run: () => "bad", fixes: [{ name: "f", cost: 1, run: () => "ok" }] })),
  metric: (o) => (o["__proto__"] === "ok" || o.toString === "ok" ? 1 : 0),
  cases: [{ id: "c1", inputs: { x: 1 } }],
};
`;

test('work a case leaves behind is charged to that case, and the next cases are analysed', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'deferred.pipeline.js', content: DEFERRED_DEFINITION, type: 'text/javascript' }]);
  await waitForDone(page, 90_000);
  const row = (id: string) => page.locator(`[data-testid=case-list] tr[data-case=${id}]`);
  await page.getByRole('tab', { name: /Cases/ }).click();
  for (const id of ['c1', 'c3', 'c5']) await expect(row(id)).toContainText('failed');
  await expect(row('c2')).toContainText('error');
  await expect(row('c4')).toContainText('error');
  await row('c2').getByRole('button', { name: 'c2' }).click();
  await expect(page.getByTestId('case-error')).toContainText('rejected and never handled: Error: late');
  await page.getByRole('button', { name: '← All cases' }).click();
  await row('c4').getByRole('button', { name: 'c4' }).click();
  await expect(page.getByTestId('case-error')).toContainText('promise callbacks');
});

test('steps named __proto__, constructor, hasOwnProperty, toString keep their values', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: 'names.pipeline.js', content: PROTOTYPE_NAMES_DEFINITION, type: 'text/javascript' }]);
  await waitForDone(page);
  await expect(meanShapley(page, '__proto__')).toHaveText(/0\.500/);
  await expect(meanShapley(page, 'toString')).toHaveText(/0\.500/);
  await expect(meanShapley(page, 'constructor')).toHaveText(/0\.000/);
  await expect(meanShapley(page, 'hasOwnProperty')).toHaveText(/0\.000/);
});

/**
 * Each case's step returns 300 million characters (about 300 MB), as in the report: twelve
 * cases are 3.6 GB, which the tab held (and died of) when results kept whole outputs.
 */
const HUGE_OUTPUTS_DEFINITION = `export default {
  name: "huge-outputs",
  steps: [
    { name: "a", inputs: ["x"], cost: 1, run: ({ x }) => "x".repeat(300000000) + x, fixes: [{ name: "f", cost: 1, run: () => "ok" }] },
  ],
  metric: (outputs) => (outputs.a === "ok" ? 1 : 0),
  cases: Array.from({ length: 12 }, (_, i) => ({ id: "c" + i, inputs: { x: String(i) } })),
};
`;

test('a definition returning 300 MB outputs per case leaves the tab alive and responsive, with the outputs cut', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('./?workers=2');
  await dropFiles(page, [{ name: 'huge.pipeline.js', content: HUGE_OUTPUTS_DEFINITION, type: 'text/javascript' }]);
  await waitForDone(page, 240_000);
  await page.getByRole('tab', { name: /Cases/ }).click();
  const rows = page.locator('[data-testid=case-list] tbody tr');
  await expect(rows).toHaveCount(12);
  // On a loaded machine a case may run past the wall-clock limit; that is its own error, never a lost tab.
  const texts = await rows.allInnerTexts();
  const analysed = texts.filter((text) => /failed\s+0\.000\s+1\.000\s+1\.000/.test(text));
  expect(analysed.length).toBeGreaterThan(0);
  for (const text of texts) if (!analysed.includes(text)) expect(text).toContain('error');
  const id = analysed[0].trim().split(/\s/)[0];
  await page.locator(`[data-testid=case-list] tr[data-case=${id}]`).getByRole('button', { name: id }).click();
  await expect(page.getByTestId('outputs-compare')).toContainText('[output cut: more than 100000 characters of JSON');
  // The tab still answers: back to the list, and the batch view draws its table.
  await page.getByRole('button', { name: '← All cases' }).click();
  await expect(rows).toHaveCount(12);
  await page.getByRole('tab', { name: 'Batch' }).click();
  await expect(meanShapley(page, 'a')).toHaveText(/1\.000/);
});

/**
 * Issue 10: steps that hoard memory cost only their case. `new Array(1e8).fill(7)` (800 MB) takes
 * Chromium 8-15 s: it finishes, or the case's time limit stops it; an array grown without end is
 * always stopped by the limit. Either way the worker is replaced (its memory freed), the tab stays
 * alive and responsive, and the other cases are analysed. (A step that reaches Chromium's heap
 * limit before its time limit takes the tab's renderer down: docs/security.md, "Memory in the page".)
 */
const HOARDING_DEFINITION = `export default {
  name: "hoarding",
  steps: [
    { name: "a", inputs: ["x"], cost: 1,
      run: ({ x }) => {
        if (x === "fill") return String(new Array(1e8).fill(7).length);
        if (x === "grow") { const a = []; for (;;) a.push({ i: a.length }); }
        return "bad";
      },
      fixes: [{ name: "f", cost: 1, run: () => "ok" }] },
  ],
  metric: (outputs) => (outputs.a === "ok" ? 1 : 0),
  cases: [{ id: "c1", inputs: { x: "q" } }, { id: "c2", inputs: { x: "fill" } }, { id: "c3", inputs: { x: "grow" } }, { id: "c4", inputs: { x: "q" } }],
};
`;

test('steps hoarding memory cost their own case only; the tab survives and the other cases finish', async ({ page }) => {
  test.setTimeout(150_000);
  let crashed = false;
  page.on('crash', () => (crashed = true));
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'hoarding.pipeline.js', content: HOARDING_DEFINITION, type: 'text/javascript' }]);
  await waitForDone(page, 120_000);
  expect(crashed).toBe(false);
  const row = (id: string) => page.locator(`[data-testid=case-list] tr[data-case=${id}]`);
  await page.getByRole('tab', { name: /Cases/ }).click();
  for (const id of ['c1', 'c4']) await expect(row(id)).toContainText('failed');
  await expect(row('c3')).toContainText('error');
  await row('c3').getByRole('button', { name: 'c3' }).click();
  await expect(page.getByTestId('case-error')).toContainText('case "c3": timed out after 10 s in step "a"');
  await page.getByRole('button', { name: '← All cases' }).click();
  // The 800 MB array: analysed, or stopped by the limit in its step.
  if ((await row('c2').innerText()).includes('error')) {
    await row('c2').getByRole('button', { name: 'c2' }).click();
    await expect(page.getByTestId('case-error')).toContainText('case "c2": timed out after 10 s in step "a"');
    await page.getByRole('button', { name: '← All cases' }).click();
  } else await expect(row('c2')).toContainText('failed');
  await page.getByRole('tab', { name: 'Batch' }).click();
  await expect(meanShapley(page, 'a')).toHaveText(/1\.000/);
});
