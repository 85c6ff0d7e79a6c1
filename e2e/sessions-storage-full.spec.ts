/**
 * Storage full: when IndexedDB refuses a write with QuotaExceededError, the workbench shows
 * the storage-full banner, keeps working in memory, and loses nothing already stored (the failed
 * transaction is rolled back whole). The failure is simulated by wrapping IDBObjectStore.put, which
 * the session store's every write goes through; `window.agentblameStorageFull` switches it on, and a
 * reload (which re-runs the init script with the switch off) frees the space again.
 */
import type { Page } from '@playwright/test';
import { expect, goHome, sessionRow, storedSummaries, test, waitForStored } from './fixtures.ts';
import { demoFile, dropFiles, meanShapley, waitForDone } from './workbench-helpers.ts';

interface StoredRecords {
  fixChoice: Record<string, string> | null;
  shapley: Record<string, number>[];
}

/** What the store holds for a session besides its summary: the settings' fix choice and each result's Shapley values. */
function storedRecords(page: Page, id: string): Promise<StoredRecords> {
  return page.evaluate(
    (sessionId) =>
      new Promise<StoredRecords>((resolve, reject) => {
        const open = indexedDB.open('agentblame');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['bodies', 'results'], 'readonly');
          const body = tx.objectStore('bodies').get(sessionId);
          const results = tx.objectStore('results').getAll(IDBKeyRange.bound([sessionId, ''], [sessionId, []]));
          tx.onerror = () => reject(tx.error);
          tx.oncomplete = () => {
            db.close();
            resolve({
              fixChoice: body.result?.settings?.fixChoice ?? null,
              shapley: results.result.map((record: { result: { shapley: Record<string, number> } }) => record.result.shapley),
            });
          };
        };
      }),
    id,
  );
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if ((window as unknown as { agentblameStorageFull?: boolean }).agentblameStorageFull) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return put.apply(this, args);
    };
  });
});

/** Analyses the refund demo, waits until it is stored, then makes every later write fail as if the disk were full. */
async function storeRefundThenFillStorage(page: Page) {
  await page.goto('./');
  await dropFiles(page, [demoFile('refund-policy.trace.json')]);
  await waitForDone(page);
  const stored = await waitForStored(page, (s) => s.status === 'done' && s.casesAnalysed === 1);
  expect(await storedRecords(page, stored.id)).toEqual({ fixChoice: null, shapley: [{ planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, reviewer: 1 / 12 }] });
  await page.evaluate(() => {
    (window as unknown as { agentblameStorageFull: boolean }).agentblameStorageFull = true;
  });
  // A change that saves: another fix for the retriever re-runs the case and rewrites the session.
  await page.getByLabel('retriever', { exact: true }).selectOption('newest on ties');
  await expect(meanShapley(page, 'planner')).toHaveText('0.667');
  await waitForDone(page);
  const banner = page.getByTestId('storage-full-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Browser storage is full');
  await expect(banner).toContainText('Nothing already saved was lost');
  return stored;
}

test('a full disk shows the storage-full banner and the stored session survives intact', async ({ page }) => {
  const stored = await storeRefundThenFillStorage(page);

  // The failed write was rolled back whole: same revision, same settings, same results.
  expect(await storedSummaries(page)).toEqual([expect.objectContaining({ id: stored.id, revision: stored.revision, casesAnalysed: 1, failuresAnalysed: 1 })]);
  expect(await storedRecords(page, stored.id)).toEqual({ fixChoice: null, shapley: [{ planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, reviewer: 1 / 12 }] });
  await goHome(page);
  await expect(sessionRow(page, stored.id)).toBeVisible();
  await expect(page.getByTestId('session-row')).toHaveCount(1);

  // Space freed (the reload drops the failing wrapper's switch): the session opens as it was stored.
  await page.reload();
  await expect(page.getByTestId('storage-full-banner')).toHaveCount(0);
  await sessionRow(page, stored.id).getByTestId('session-open').click();
  await expect(page.getByLabel('retriever', { exact: true })).toHaveValue('drop superseded');
  await expect(meanShapley(page, 'planner')).toHaveText('0.417');
  await expect(meanShapley(page, 'retriever')).toHaveText('0.417');
  await expect(meanShapley(page, 'writer')).toHaveText('0.083');
  await waitForDone(page);
});

test('after space is freed, "Try again" saves the change that could not be saved', async ({ page }) => {
  const stored = await storeRefundThenFillStorage(page);
  await page.evaluate(() => {
    (window as unknown as { agentblameStorageFull: boolean }).agentblameStorageFull = false;
  });
  await page.getByTestId('storage-full-banner').getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('storage-full-banner')).toHaveCount(0);
  await waitForStored(page, (s) => s.id === stored.id && s.revision > stored.revision && s.status === 'done' && s.casesAnalysed === 1);
  await expect.poll(() => storedRecords(page, stored.id)).toEqual({ fixChoice: { retriever: 'newest on ties' }, shapley: [{ planner: 2 / 3, retriever: 0, writer: 1 / 6, reviewer: 1 / 6 }] });

  await page.goto('./'); // a new visit of the start page (a reload now reopens the open study's view)
  await sessionRow(page, stored.id).getByTestId('session-open').click();
  await expect(page.getByLabel('retriever', { exact: true })).toHaveValue('newest on ties');
  await expect(meanShapley(page, 'planner')).toHaveText('0.667');
});
