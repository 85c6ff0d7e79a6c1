/**
 * Opens a demo the way a user does on a page already loaded: the start page first, then, once the
 * browser has gone quiet (the page's loading, its workers' start and their engine warm-up over), a
 * click on the demo. The command's timed runs leave its pool's start out the same way (its pool is
 * started and the definition described before the clock starts; bench/README.md, "Speed round 5").
 */
import type { Page } from '@playwright/test';
import { descendantsCpuMs } from './process-cpu.ts';

/** The browser counts as quiet when its processes used less than this share of one core over QUIET_WINDOW_MS. */
const QUIET_SHARE = 0.05;
const QUIET_WINDOW_MS = 300;
/** A page that never goes quiet (a busy machine's browser threads) is used after this long anyway. */
const QUIET_GIVE_UP_MS = 8_000;

/** Waits until the browser's processes are quiet; answers how long that took, in ms. */
export async function browserQuiet(): Promise<number> {
  const started = Date.now();
  const first = descendantsCpuMs();
  if (first === null) {
    // No /proc: a fixed pause stands in.
    await new Promise((r) => setTimeout(r, 2_000));
    return Date.now() - started;
  }
  let last: number = first;
  for (;;) {
    await new Promise((r) => setTimeout(r, QUIET_WINDOW_MS));
    const now: number = descendantsCpuMs() ?? last;
    if (now - last < QUIET_SHARE * QUIET_WINDOW_MS || Date.now() - started > QUIET_GIVE_UP_MS) return Date.now() - started;
    last = now;
  }
}

/** The start page with `query`, then the demo's button once the browser is quiet. */
export async function openDemoFromStartPage(page: Page, base: string, demo: string, query: string): Promise<void> {
  await page.goto(`${base}/?${query}`);
  await page.locator(`[data-demo="${demo}"]`).waitFor();
  await browserQuiet();
  await page.click(`[data-demo="${demo}"]`);
}
