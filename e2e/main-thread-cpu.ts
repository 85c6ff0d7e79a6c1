import type { Browser, Page } from '@playwright/test';

/**
 * The CPU time of each task the page's main thread ran, from a Chromium trace. A long task (the
 * Long Tasks API) is wall time: on a loaded machine the OS scheduler can hold a 5 ms task off the
 * core for 100 ms, and that counts as ours. A trace's top-level tasks carry their thread time
 * (`tdur`) beside their wall time (`dur`): the CPU the thread actually used, which preemption
 * does not inflate. So "our main thread did over 50 ms of work in one task" is judged on `tdur`.
 */
export interface MainThreadTask {
  /** Wall time in ms (what the Long Tasks API would report). */
  wallMs: number;
  /** This thread's CPU time in ms. */
  cpuMs: number;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
}

const FROM = 'agentblame-cpu-window-start';
const TO = 'agentblame-cpu-window-end';

/** Starts a trace of the page's tasks; call `markStart` and `markEnd` on the page around the window to judge. */
export async function startMainThreadTrace(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
}

export async function markStart(page: Page): Promise<void> {
  await page.evaluate((name) => performance.mark(name), FROM);
}

export async function markEnd(page: Page): Promise<void> {
  await page.evaluate((name) => performance.mark(name), TO);
}

/**
 * Stops the trace and answers the top-level tasks of the thread that made the marks (the page's
 * main thread, not the workers' frames, which run in a process of their own) that started
 * between the two marks.
 */
export async function stopMainThreadTrace(browser: Browser): Promise<MainThreadTask[]> {
  const parsed = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const from = events.find((e) => e.name === FROM);
  const to = events.find((e) => e.name === TO);
  if (from === undefined || to === undefined) throw new Error(`the trace has no ${from === undefined ? FROM : TO} mark: call markStart and markEnd while tracing`);
  if (from.pid !== to.pid || from.tid !== to.tid) throw new Error('the two marks were made on different threads');
  return events
    .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.pid === from.pid && e.tid === from.tid && e.ts >= from.ts && e.ts <= to.ts)
    .map((e) => ({ wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? Number.NaN) / 1000 }));
}
