import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchCdpBrowser } from './cdp-browser.ts';
import { dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

/**
 * Hostile steps in the page: work a case leaves behind (an unhandled rejection, a promise chain that
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
 * Steps that hoard memory cost only their case. `new Array(1e8).fill(7)` (800 MB) takes
 * Chromium 8-15 s: it finishes, or the case's time limit stops it; an array grown without end is
 * stopped by the limit or by the RangeError of V8's largest array length, whichever comes first. Either way the worker is replaced (its memory freed), the tab stays
 * alive and responsive, and the other cases are analysed. (A step that reaches V8's heap limit
 * before its time limit crashes its worker's process: the test after this one.)
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
  // The array grown without end: stopped by the time limit, or, on a machine fast enough to reach
  // V8's largest array length first, by the RangeError that length throws. Either way only c3 pays.
  await expect(page.getByTestId('case-error')).toContainText(/case "c3": (timed out after 10 s in step "a"|step "a" threw: RangeError: Invalid array length)/);
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

/**
 * A step that reaches V8's heap limit crashes its worker's process. The workers run in
 * sandboxed frames, in a process apart from the tab's (src/app/analysis/analysis-frame.ts), so the
 * tab goes on: that case's error says its worker was lost, most likely out of memory, and the
 * other cases are analysed, including those lost with the same process (the two workers share it)
 * and run again. The heap limit is lowered to 512 MB for this browser, so the step reaches it in
 * seconds rather than in the half minute 4 GB takes; the crash is the same (docs/security.md).
 */
const OUT_OF_MEMORY_DEFINITION = `export default {
  name: "out-of-memory",
  steps: [
    { name: "a", inputs: ["x"], cost: 1,
      run: ({ x }) => {
        if (x === "oom") { const kept = []; for (;;) { const s = "x".repeat(1 << 27) + kept.length; s.charCodeAt(1); kept.push(s); } }
        return "bad";
      },
      fixes: [{ name: "f", cost: 1, run: () => "ok" }] },
  ],
  metric: (outputs) => (outputs.a === "ok" ? 1 : 0),
  cases: ["c1", "c2", "c3", "oom", "c5", "c6", "c7", "c8"].map((id) => ({ id, inputs: { x: id } })),
};
`;

test('a step that runs out of memory loses its worker, not the tab; the case says so and the others finish', async ({ baseURL }) => {
  test.setTimeout(240_000);
  const launchOptions = test.info().project.use.launchOptions ?? {};
  const profile = mkdtempSync(join(tmpdir(), 'agentblame-oom-'));
  // Its own browser (V8 flags are per browser), driven over the DevTools protocol (e2e/cdp-browser.ts).
  const browser = launchCdpBrowser(launchOptions.executablePath ?? 'chromium', [...(launchOptions.args ?? []), `--user-data-dir=${profile}`, '--js-flags=--max-old-space-size=512']);
  try {
    const targetTypes = new Map<string, string>();
    const crashed: string[] = [];
    browser.on('Target.targetCreated', ({ targetInfo }) => targetTypes.set((targetInfo as { targetId: string }).targetId, (targetInfo as { type: string }).type));
    browser.on('Target.targetCrashed', ({ targetId }) => crashed.push(targetTypes.get(targetId as string) ?? 'unknown'));
    await browser.send('Target.setDiscoverTargets', { discover: true });
    const { targetId } = await browser.send<{ targetId: string }>('Target.createTarget', { url: new URL('./?workers=2', baseURL).href });
    const { sessionId } = await browser.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    // The page is cross-origin isolated (COOP): its first load swaps the new tab's process, and a call
    // made in that moment finds no execution context. Such a call is asked again, never any other failure.
    const evaluate = async <T>(expression: string) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await browser.send<{ result: { value: T }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
            'Runtime.evaluate',
            { expression, awaitPromise: true, returnByValue: true },
            sessionId,
          );
        } catch (e) {
          if (attempt >= 40 || !/Cannot find default execution context|Execution context was destroyed/.test(String(e))) throw e;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    };
    const inPage = async <T>(expression: string): Promise<T> => {
      const { result, exceptionDetails } = await evaluate<T>(expression);
      if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      return result.value;
    };
    const until = (expression: string, timeout = 60_000) => expect.poll(() => inPage<boolean>(expression), { timeout, intervals: [250] }).toBe(true);
    const progress = `(document.querySelector('[data-testid=run-progress]')?.innerText ?? '')`;

    // The time limit lives in the study's settings: set it on a demo, above the time it takes to fill the heap.
    await until(`document.querySelector('button[data-demo="refund-policy"]') !== null`);
    await inPage(`document.querySelector('button[data-demo="refund-policy"]').click()`);
    await until(`${progress}.startsWith('Done')`);
    await inPage(`(() => {
      const label = [...document.querySelectorAll('label')].find((label) => label.textContent.trim() === 'Time limit (s)');
      const input = document.getElementById(label.htmlFor);
      input.value = '120';
      input.dispatchEvent(new Event('change', { bubbles: true }));
      [...document.querySelectorAll('button')].find((button) => button.textContent.trim() === 'Close').click();
    })()`);
    await until(`document.querySelector('button[data-demo="refund-policy"]') !== null`);
    // Dropped as dropFiles does.
    await inPage(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([${JSON.stringify(OUT_OF_MEMORY_DEFINITION)}], 'oom.pipeline.js', { type: 'text/javascript' }));
      const main = document.querySelector('main');
      for (const type of ['dragenter', 'drop']) main.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    })()`);
    await until(`${progress}.startsWith('Done: 8 cases')`, 200_000);
    // A frame's process crashed (twice: with both workers' cases, then with the case alone); the tab did not.
    expect(crashed.length).toBeGreaterThan(0);
    expect(crashed.every((type) => type === 'iframe')).toBe(true);
    // The tab still answers: its timers run and its views switch.
    expect(await inPage<number>('new Promise((resolve) => { const start = performance.now(); setTimeout(() => resolve(performance.now() - start), 50); })')).toBeLessThan(2000);
    await inPage(`[...document.querySelectorAll('[role=tab]')].find((tab) => tab.textContent.includes('Cases')).click()`);
    const row = (id: string) => `(document.querySelector('[data-testid=case-list] tr[data-case=${id}]')?.innerText ?? '')`;
    await until(`${row('oom')}.includes('error')`);
    for (const id of ['c1', 'c2', 'c3', 'c5', 'c6', 'c7', 'c8']) expect(await inPage<string>(row(id))).toContain('failed');
    await inPage(`document.querySelector('[data-testid=case-list] tr[data-case=oom] button').click()`);
    await until(`(document.querySelector('[data-testid=case-error]')?.innerText ?? '').includes('case "oom": the worker was lost in step "a": its process crashed, most likely out of memory')`);
    expect(crashed.every((type) => type === 'iframe')).toBe(true);
  } finally {
    await browser.close();
    // Its last processes may still be leaving files there for a moment.
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
});
