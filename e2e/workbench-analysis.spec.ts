import { expect, test } from '@playwright/test';
import { batchTableText, demoFile, dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';
import { markEnd, markStart, startMainThreadTrace, stopMainThreadTrace } from './main-thread-cpu.ts';

/** A definition whose step "a" never returns for input 2; the other cases are quick. */
const LOOPING_DEFINITION = `export default {
  name: "hostile",
  steps: [
    { name: "a", inputs: ["x"], cost: 1,
      run: ({ x }) => { if (x === 2) { while (true) {} } return x; },
      fixes: [{ name: "add one", cost: 1, run: ({ x }) => x + 1 }] },
    { name: "b", inputs: ["a"], cost: 1, run: ({ a }) => a, fixes: [{ name: "same", cost: 1, run: ({ a }) => a }] },
  ],
  metric: (outputs) => (outputs.b >= 2 ? 1 : 0),
  cases: [{ id: "c1", inputs: { x: 1 } }, { id: "c2", inputs: { x: 2 } }, { id: "c3", inputs: { x: 1 } }],
};
`;

/** Forty cases whose steps each spin for a while, so an analysis lasts long enough to cancel. */
const SLOW_DEFINITION = `function spin(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + i) % 7; return s; }
export default {
  name: "slow",
  steps: [
    { name: "a", inputs: ["x"], cost: 1, run: ({ x }) => spin(4e6) * 0 + x, fixes: [{ name: "up", cost: 1, run: ({ x }) => spin(4e6) * 0 + x + 1 }] },
    { name: "b", inputs: ["a"], cost: 1, run: ({ a }) => spin(4e6) * 0 + a, fixes: [{ name: "up", cost: 1, run: ({ a }) => spin(4e6) * 0 + a + 1 }] },
  ],
  metric: (outputs) => (outputs.b >= 2 ? 1 : 0),
  cases: Array.from({ length: 40 }, (_, i) => ({ id: "s" + i, inputs: { x: 0 } })),
};
`;

test('a definition that never returns is contained: the case shows its error and the page stays responsive', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'hostile.pipeline.js', content: LOOPING_DEFINITION, type: 'text/javascript' }]);
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-status', 'running');
  // While the worker is stuck, the page still answers: tabs switch and the filter filters.
  await page.getByRole('tab', { name: /Cases/ }).click();
  await page.getByLabel('Filter by id').fill('c3');
  await expect(page.getByTestId('case-list').locator('tbody tr')).toHaveCount(1);
  await page.getByLabel('Filter by id').fill('');
  await waitForDone(page, 40_000);
  const row = page.locator('[data-testid=case-list] tr[data-case=c2]');
  await expect(row).toContainText('error');
  await row.getByRole('button', { name: 'c2' }).click();
  await expect(page.getByTestId('case-error')).toContainText('timed out after');
  await expect(page.getByTestId('case-error')).toContainText('step "a"');
  // The replacement worker carried on: the case after the stuck one has its result.
  await page.getByRole('button', { name: '← All cases' }).click();
  await expect(page.locator('[data-testid=case-list] tr[data-case=c3]')).toContainText('failed');
});

test('a definition that never finishes loading is stopped and reported, and the page stays usable', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: 'forever.pipeline.js', content: 'while (true) {}\nexport default { name: "x", steps: [], metric: () => 1 };\n', type: 'text/javascript' }]);
  await expect(page.getByText('Compiling the pipeline definition')).toBeVisible();
  // Settings stay usable while the sandbox is stuck.
  await page.getByLabel('Mode', { exact: true }).selectOption('prior');
  await expect(page.getByTestId('definition-error')).toContainText('forever.pipeline.js: evaluating the definition timed out after', { timeout: 40_000 });
  await page.getByRole('button', { name: 'Close' }).click();
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
});

test('Cancel stops the analysis, keeps finished cases, and Resume completes it', async ({ page }) => {
  await page.goto('./?workers=1');
  await dropFiles(page, [{ name: 'slow.pipeline.js', content: SLOW_DEFINITION, type: 'text/javascript' }]);
  const progress = page.getByTestId('run-progress');
  await expect(progress).toHaveAttribute('data-status', 'running');
  await expect(progress).toContainText(/Analysing: [1-9]/, { timeout: 30_000 });
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveAttribute('data-status', 'cancelled');
  const text = await progress.innerText();
  const done = Number(/Cancelled: (\d+) of 40/.exec(text)?.[1]);
  expect(done).toBeGreaterThan(0);
  expect(done).toBeLessThan(40);
  await progress.getByRole('button', { name: 'Resume' }).click();
  await waitForDone(page, 80_000);
  await expect(progress).toContainText('Done: 40 cases');
});

test('results are identical with one worker and with three, exact and Monte Carlo', async ({ page }) => {
  const tables: string[] = [];
  for (const workers of [1, 3]) {
    await page.goto(`./?workers=${workers}`);
    await dropFiles(page, [demoFile('stochastic-rag.trace.json')]);
    await waitForDone(page);
    tables.push(await batchTableText(page));
    await page.getByLabel('Shapley values').selectOption('mc');
    // The Monte Carlo run starts after a short pause for more changes, then ends as done.
    await expect(page.getByTestId('run-progress')).not.toHaveAttribute('data-status', 'done', { timeout: 5_000 }).catch(() => undefined);
    await waitForDone(page, 80_000);
    tables.push(await batchTableText(page));
  }
  expect(tables[2]).toBe(tables[0]);
  expect(tables[3]).toBe(tables[1]);
});

test('changing a setting re-runs the analysis, and changing it back restores the earlier results', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [demoFile('stochastic-rag.trace.json')]);
  await waitForDone(page);
  const recorded = await batchTableText(page);
  await page.getByLabel('Mode', { exact: true }).selectOption('prior');
  // The re-run can finish before a 'running' state is ever polled: wait for its different results.
  await expect.poll(() => batchTableText(page), { timeout: 80_000 }).not.toBe(recorded);
  await waitForDone(page, 80_000);
  await page.getByLabel('Mode', { exact: true }).selectOption('recorded');
  await waitForDone(page);
  expect(await batchTableText(page)).toBe(recorded);
  // The batch interval is computed from the results: the CIs change, the cases do not re-run.
  const meanBefore = await meanShapley(page, 'retrieve').innerText();
  await page.getByLabel('Mean Shapley CI').selectOption('anytime');
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-status', 'done');
  await expect(meanShapley(page, 'retrieve')).toHaveText(meanBefore);
  expect(await batchTableText(page)).not.toBe(recorded);
});

test.describe('responsiveness', () => {
  // "No long task" means our own main-thread work never blocks the page for 50 ms at a stretch.
  // The Long Tasks API measures wall time, which on a loaded machine includes the time the OS
  // scheduler kept the thread off the core (a 5 ms task can last 100 ms at load 10), so this judges
  // each task by the CPU time its thread used (a Chromium trace's thread time): preemption does
  // not inflate that, and a task that really does 50 ms of work exceeds it on any machine.
  test('no main-thread task does over 50 ms of work while the stochastic-rag demo is analysed', async ({ browser, page }) => {
    await page.goto('./');
    await startMainThreadTrace(browser, page);
    await dropFiles(page, [demoFile('stochastic-rag.trace.json')]);
    await expect(page.getByTestId('run-progress')).toBeVisible();
    await markStart(page);
    // Poll gently: the test's own DOM queries run on the page's main thread too.
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid=run-progress]')?.dataset.status === 'done', null, { polling: 500, timeout: 60_000 });
    await markEnd(page);
    const tasks = await stopMainThreadTrace(browser);
    // The page did answer results in the window, and the trace has thread times to judge by.
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.some((task) => Number.isFinite(task.cpuMs))).toBe(true);
    // Chromium leaves the thread time out of some tasks of a microsecond or so; a task can use no
    // more CPU than its wall time, so one without a thread time is judged by its wall time.
    expect(tasks.filter((task) => (Number.isFinite(task.cpuMs) ? task.cpuMs : task.wallMs) > 50)).toEqual([]);
  });
});
