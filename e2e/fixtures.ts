/**
 * Shared pieces for the browser tests of sessions: a `test` whose page starts on the workbench
 * with empty storage (each Playwright test has its own browser context, so its own IndexedDB),
 * and helpers that read what the page stored, so a test can wait until a save has landed
 * before reloading instead of sleeping.
 */
import { readFile } from 'node:fs/promises';
import { expect, test as base, type Download, type Locator, type Page } from '@playwright/test';

/** What the session store keeps per session for the list (src/session/types.ts SessionSummary). */
export interface StoredSummary {
  id: string;
  name: string;
  pipelineName: string;
  fileName: string;
  status: 'idle' | 'running' | 'done' | 'cancelled';
  revision: number;
  caseCount: number;
  casesAnalysed: number;
  failuresAnalysed: number;
  /** The study's mode (recorded, posterior, prior). */
  mode?: string;
}

/** Reads the session summaries straight from the page's IndexedDB (database "agentblame"). */
export function storedSummaries(page: Page): Promise<StoredSummary[]> {
  return page.evaluate(
    () =>
      new Promise<StoredSummary[]>((resolve, reject) => {
        const request = indexedDB.open('agentblame');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('summaries')) {
            db.close();
            resolve([]);
            return;
          }
          const read = db.transaction('summaries', 'readonly').objectStore('summaries').getAll();
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            db.close();
            resolve(read.result);
          };
        };
      }),
  );
}

/** Waits until some stored session satisfies `predicate` (a save has landed) and returns it. */
export async function waitForStored(page: Page, predicate: (summary: StoredSummary) => boolean, timeout = 30_000): Promise<StoredSummary> {
  let found: StoredSummary | undefined;
  await expect
    .poll(async () => {
      found = (await storedSummaries(page)).find(predicate);
      return found !== undefined;
    }, { timeout, message: 'waiting for the session to be saved' })
    .toBe(true);
  if (found === undefined) throw new Error('unreachable: poll passed without a stored session');
  return found;
}

/** The "Recent sessions" entry for a session id. */
export function sessionRow(page: Page, id: string): Locator {
  return page.locator(`[data-testid=session-row][data-session-id="${id}"]`);
}

/** The text of a download (an exported session file or report). */
export async function downloadedText(download: Download): Promise<string> {
  const path = await download.path();
  return readFile(path, 'utf8');
}

/** Returns to the landing page, where "Recent sessions" is shown. */
export async function goHome(page: Page): Promise<void> {
  await page.getByRole('button', { name: /back to the start page/ }).click();
  await expect(page.getByTestId('privacy-note')).toBeVisible();
}

export const test = base;
export { expect };
