/**
 * The page's state classes wired as App.svelte wires them (src/app/page.ts, the same function),
 * with the fakes the tests inject: the fake analysis pool, the in-process importer, and whatever
 * IndexedDB and browser globals the test installed (fake-indexeddb, installFakeBrowser).
 */
import { assemblePage, type PageParts } from '../page.ts';
import { FakePool } from './fake-pool.ts';
import { importInProcess } from './in-process-import.ts';

export interface PageState extends PageParts {
  pool: FakePool;
}

export function pageState(): PageState {
  const pool = new FakePool();
  return { ...assemblePage({ workers: 2, createPool: () => pool, importFile: importInProcess }), pool };
}
