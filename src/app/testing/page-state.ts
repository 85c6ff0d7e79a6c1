/**
 * The page's state classes wired as App.svelte wires them, with the fakes the tests inject: the
 * fake analysis pool, the in-process importer, and whatever IndexedDB and browser globals the test
 * installed (fake-indexeddb, installFakeBrowser).
 */
import { Navigation } from '../navigation/navigation.svelte.ts';
import { AnalysisRunner } from '../state/analysis-runner.svelte.ts';
import { SessionSync } from '../state/session-sync.svelte.ts';
import { StudyOpener } from '../state/study-opener.svelte.ts';
import { FakePool } from './fake-pool.ts';
import { importInProcess } from './in-process-import.ts';

export interface PageState {
  nav: Navigation;
  runner: AnalysisRunner;
  sync: SessionSync;
  opener: StudyOpener;
  pool: FakePool;
}

export function pageState(): PageState {
  const nav = new Navigation();
  const pool = new FakePool();
  // The runner and the sync need each other: the sync's autosave is handed to the runner late.
  let sync: SessionSync | null = null;
  const runner = new AnalysisRunner(2, {
    autosave: { schedule: () => sync?.schedule(), saveNow: () => sync?.flush() },
    navigation: nav,
    createPool: () => pool,
  });
  sync = new SessionSync(runner);
  const opener = new StudyOpener(runner, sync, importInProcess);
  return { nav, runner, sync, opener, pool };
}
