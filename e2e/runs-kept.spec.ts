/**
 * Trace files opened in the run view are kept in this browser: a step's address reopens the same
 * step after a reload and in a new tab; once the file is removed from this browser the address
 * says so plainly and offers to open the file, and shows the step once it is opened.
 * Uses a fixture of our own (src/formats/recorded/fixtures).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { auditPage } from './a11y-check.ts';
import { dropFiles } from './workbench-helpers.ts';

const NAME = 'agno-vercel.langfuse.trace.json';
const CONTENT = readFileSync(join(import.meta.dirname, '../src/formats/recorded/fixtures', NAME), 'utf8');

/** How many trace files this browser keeps (read from the page's own database). */
function keptFiles(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('agentblame');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('runFiles')) return (db.close(), resolve(0));
          const count = db.transaction('runFiles').objectStore('runFiles').count();
          count.onsuccess = () => (db.close(), resolve(count.result));
          count.onerror = () => (db.close(), reject(count.error));
        };
      }),
  );
}

function selectedStep(page: Page) {
  return page.getByRole('listbox', { name: 'Steps' }).getByRole('option', { selected: true });
}

test('a step\'s address reopens it after a reload and in a new tab; removed from this browser, it says so and offers the file', async ({ page, context }) => {
  await page.goto('./');
  await dropFiles(page, [{ name: NAME, content: CONTENT, type: 'application/json' }]);
  await expect(page.getByRole('region', { name: /^Run / })).toContainText('7 steps');
  await page.getByRole('listbox', { name: 'Steps' }).getByRole('option').nth(3).click();
  const step = (await selectedStep(page).textContent()) ?? '';
  expect(step).not.toBe('');
  await expect(page).toHaveURL(/#runs\/[^/]+\/[^/]+$/);
  const address = page.url();
  await expect.poll(() => keptFiles(page)).toBe(1);

  await page.reload();
  await expect(selectedStep(page)).toHaveText(step);
  expect(page.url()).toBe(address);

  const other = await context.newPage();
  await other.goto(address);
  await expect(selectedStep(other)).toHaveText(step);
  expect(other.url()).toBe(address);

  // Back to the start page: the kept file is listed there, and removed.
  await other.getByRole('button', { name: 'agentblame: back to the start page' }).click();
  const kept = other.getByRole('region', { name: 'Trace files kept in this browser' });
  await expect(kept).toContainText(NAME);
  await expect(kept).toContainText('1 run');
  // Its buttons are named and its text readable (the page's own audit).
  expect(await auditPage(other)).toEqual([]);
  await kept.getByRole('button', { name: `Remove ${NAME}` }).click();
  await kept.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(kept).toBeHidden();
  expect(await keptFiles(other)).toBe(0);

  const third = await context.newPage();
  await third.goto(address);
  const notice = third.getByRole('alert').filter({ hasText: 'Run not open' });
  await expect(notice).toContainText('whose file is not kept in this browser: it was opened in another browser, or removed from this one. Open the file to see it.');
  await expect(notice.getByRole('button', { name: 'Open the file…' })).toBeVisible();
  // Opening the file shows the step the address names.
  await third.locator('input[type=file]').first().setInputFiles({ name: NAME, mimeType: 'application/json', buffer: Buffer.from(CONTENT) });
  await expect(selectedStep(third)).toHaveText(step);
  expect(third.url()).toBe(address);
});

test('a full disk when keeping a trace file shows the storage banner; the run stays open and the page keeps working', async ({ page }) => {
  // Every put fails as on a full disk once `agentblameStorageFull` is set (as in sessions-storage-full.spec.ts).
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if ((window as unknown as { agentblameStorageFull?: boolean }).agentblameStorageFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  await page.goto('./');
  await page.evaluate(() => {
    (window as unknown as { agentblameStorageFull: boolean }).agentblameStorageFull = true;
  });
  await dropFiles(page, [{ name: NAME, content: CONTENT, type: 'application/json' }]);
  const banner = page.getByTestId('storage-full-banner');
  await expect(banner).toContainText('Browser storage is full');
  await expect(banner).toContainText('could not keep the trace file in this browser');
  await expect(page.getByRole('region', { name: /^Run / })).toContainText('7 steps');
  await page.getByRole('listbox', { name: 'Steps' }).getByRole('option').nth(2).click();
  await expect(page).toHaveURL(/#runs\/[^/]+\/[^/]+$/);
  expect(await keptFiles(page)).toBe(0);
});
