/**
 * The page against the command on the same cases, one worker each, in the same run (so both meet
 * the same machine and the same load): the command's Node pool (`npm run blame --workers 1`'s
 * pool, started and the definition described before timing) and the page with `?workers=1`,
 * timed from status "running" to "done" (its worker has compiled the definition by then). The
 * throughput ratio page/command is command time / page time (same cases); the target is 0.8x.
 *
 * Like with like (bench/README.md, "Speed round 5"): the command's figure is its warm run (its
 * pool started, its worker's engine compiled by a first run), so the page's is a study opened from
 * the start page once the page is quiet (its worker started and its engine warmed meanwhile, as a
 * user's page is when they choose a study), not a fresh page opened by a link, whose window also
 * holds the rest of the page's start. That one is measured too, against the command's cold run
 * (`linkPage*`, `ratioCpuLink`), so the cold cost stays in view.
 *
 * Also the page's main-thread time per case, from a Chromium trace of a separate run (tracing
 * costs a little, so the timed runs are not traced): the top-level tasks of the page's main thread
 * between the two status marks, their CPU time (thread time, which the scheduler's preemption on
 * a loaded machine does not inflate) and their wall time.
 */
import { loadavg } from 'node:os';
import type { Browser } from '@playwright/test';
import { DEFAULT_SETTINGS } from '../../src/engine/index.ts';
import { poolRunner } from '../lib/case-runner.ts';
import { loadDemo, type DemoName } from '../lib/demos.ts';
import { median } from '../lib/measure.ts';
import { nodeDescendantsCpuSince, sampleDescendantsCpu } from './process-cpu.ts';
import { readDoneLine } from './done-line.ts';
import { openDemoFromStartPage } from './open-from-start-page.ts';

export interface PageVsCommand {
  trace: DemoName;
  cases: number;
  /** Step cost of all the cases (each cache miss charged its step's cost), on the page and in the command: the same work when equal. */
  pageCost: number;
  commandCost: number;
  /** Medians of the timed runs, in ms: the command's first run in a fresh pool (cold), its second (warm), the page's. */
  commandColdMs: number;
  commandMs: number;
  pageMs: number;
  commandColdRunsMs: number[];
  commandRunsMs: number[];
  pageRunsMs: number[];
  /** Page throughput / the warm command's (command time / page time): the target's figure. */
  ratio: number;
  /** Against the command's cold first run. */
  ratioCold: number;
  /**
   * CPU time of the same runs (medians, ms): every browser process from "running" to "done", and
   * this process with the pool's worker process during the command's warm run (/proc, each thread's schedstat: process-cpu.ts). Load stretches wall
   * time (on a machine at load 20, each thread gets a tenth of a core, unevenly) but not CPU time,
   * so the CPU ratio is the steadier figure on a shared machine.
   */
  pageCpuMs: number;
  commandCpuMs: number;
  ratioCpu: number;
  /** A fresh page opened by a link (`?trace=`): its wall and CPU medians, the command's cold run's CPU, and command cold CPU / page CPU. */
  linkPageMs: number;
  linkPageCpuMs: number;
  commandColdCpuMs: number;
  ratioCpuLink: number;
  /** The page's main thread during the traced run: CPU and wall time of its tasks, per case. */
  mainThreadCpuMsPerCase: number;
  mainThreadWallMsPerCase: number;
  /** Its longest task's CPU time, in ms. */
  mainThreadLongestCpuMs: number;
}

/** Marks each change of the run's status in the page's timeline (and so in a trace). */
const MARK_STATUS = `
  window.__statusLog = [];
  const seen = new WeakMap();
  new MutationObserver(() => {
    const el = document.querySelector('[data-testid="run-progress"]');
    if (!el) return;
    const s = el.getAttribute('data-status');
    if (seen.get(el) === s) return;
    seen.set(el, s);
    performance.mark('bench-status-' + s);
    window.__statusLog.push({ status: s, at: performance.now() });
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
`;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
}

/** How the page opens the study: from its start page once quiet (a user's choice), or by a link in a fresh page. */
type Opened = 'start-page' | 'link';

/** One page run with one worker: running-to-done wall time, and with `trace`, the main thread's tasks in that window. */
async function pageRun(browser: Browser, base: string, trace: DemoName, timeoutMs: number, traced: boolean, opened: Opened = 'start-page'): Promise<{ wallMs: number; cpuMs: number; cases: number; cost: number; tasks: { cpuMs: number; wallMs: number }[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(MARK_STATUS);
  const cpu = sampleDescendantsCpu();
  try {
    if (traced) await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
    if (opened === 'link') await page.goto(`${base}/?trace=demos/${trace}.trace.json&workers=1`);
    else await openDemoFromStartPage(page, base, trace, 'workers=1');
    await page.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: timeoutMs });
    const log = (await page.evaluate('window.__statusLog')) as { status: string; at: number }[];
    const start = log.find((s) => s.status === 'running')?.at;
    const end = log.find((s) => s.status === 'done')?.at;
    if (start === undefined || end === undefined) throw new Error(`${trace}: run status not seen: ${JSON.stringify(log)}`);
    const { cases, cost } = readDoneLine(await page.getByTestId('run-progress').getByRole('status').innerText());
    cpu.stop();
    const origin = (await page.evaluate('performance.timeOrigin')) as number;
    const cpuMs = cpu.between(origin + start, origin + end);
    if (!traced) return { wallMs: end - start, cpuMs, cases, cost, tasks: [] };
    const parsed = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
    const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
    const from = events.find((e) => e.name === 'bench-status-running');
    const to = events.find((e) => e.name === 'bench-status-done');
    if (from === undefined || to === undefined) throw new Error(`${trace}: the trace has no status marks`);
    const tasks = events
      .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.pid === from.pid && e.tid === from.tid && e.ts >= from.ts && e.ts <= to.ts)
      // Chromium leaves the thread time off some tasks a microsecond or so long: their wall time bounds it.
      .map((e) => ({ cpuMs: (e.tdur ?? e.dur ?? Number.NaN) / 1000, wallMs: (e.dur ?? 0) / 1000 }));
    if (tasks.some((t) => !Number.isFinite(t.cpuMs))) throw new Error(`${trace}: the trace's tasks carry neither thread time nor wall time`);
    return { wallMs: end - start, cpuMs, cases, cost, tasks };
  } finally {
    cpu.stop();
    await context.close();
  }
}

/**
 * The command's single-worker pool on every case of the trace, with the default settings, as
 * `npm run blame --workers 1` runs them: a fresh pool, the definition described before the clock
 * starts (the page's worker compiles before "running"), timed twice: its first run (a cold worker,
 * as `npm run blame` always has) and a second on the same worker (warm). The page's worker is
 * cold too, but Chromium keeps the compiled code of the page's scripts from the warm-up visit,
 * which a fresh Node worker does not have: the warm figure is the fairer one for the engine's speed.
 */
async function commandRun(trace: DemoName, previewPid: number): Promise<{ cases: number; cost: number; coldMs: number; coldCpuMs: number; warmMs: number; warmCpuMs: number }> {
  const demo = loadDemo(trace);
  const runner = await poolRunner(demo.source, `${trace}.pipeline.js`, 1);
  try {
    const timed = async () => {
      const t0 = performance.now();
      // This process (the pool's side) and its worker process (the analysis), not the preview server.
      const cpu0 = process.cpuUsage();
      const children = nodeDescendantsCpuSince(previewPid);
      const results = await runner.run(demo.cases, { ...DEFAULT_SETTINGS });
      const wallMs = performance.now() - t0;
      const used = process.cpuUsage(cpu0);
      const cpuMs = (used.user + used.system) / 1000 + children();
      const failed = results.find((r) => r.error !== undefined);
      if (failed) throw new Error(`${trace}: case ${failed.id} failed to analyse: ${failed.error}`);
      return { wallMs, cpuMs, cost: results.reduce((sum, r) => sum + r.cost, 0) };
    };
    const cold = await timed();
    const warm = await timed();
    return { cases: demo.cases.length, cost: cold.cost, coldMs: cold.wallMs, coldCpuMs: cold.cpuMs, warmMs: warm.wallMs, warmCpuMs: warm.cpuMs };
  } finally {
    await runner.close();
  }
}

/** Page and command, alternating run by run so that a change of load meets both. */
export async function pageVsCommand(browser: Browser, base: string, previewPid: number, trace: DemoName, runs: number, timeoutMs: number, log: (line: string) => void): Promise<PageVsCommand> {
  await pageRun(browser, base, trace, timeoutMs, false); // warm-up: HTTP and code caches
  const pageRunsMs: number[] = [];
  const commandRunsMs: number[] = [];
  const commandColdRunsMs: number[] = [];
  const pageCpuRunsMs: number[] = [];
  const commandCpuRunsMs: number[] = [];
  const linkRunsMs: number[] = [];
  const linkCpuRunsMs: number[] = [];
  const commandColdCpuRunsMs: number[] = [];
  let cases = 0;
  let pageCost = 0;
  let commandCost = 0;
  for (let r = 0; r < runs; r++) {
    const command = await commandRun(trace, previewPid);
    const onPage = await pageRun(browser, base, trace, timeoutMs, false);
    const byLink = await pageRun(browser, base, trace, timeoutMs, false, 'link');
    if (onPage.cases !== command.cases || byLink.cases !== command.cases) throw new Error(`${trace}: the page analysed ${onPage.cases} cases (${byLink.cases} opened by a link), the command ${command.cases}`);
    [cases, pageCost, commandCost] = [command.cases, onPage.cost, command.cost];
    commandColdRunsMs.push(command.coldMs);
    commandRunsMs.push(command.warmMs);
    pageRunsMs.push(onPage.wallMs);
    pageCpuRunsMs.push(onPage.cpuMs);
    commandCpuRunsMs.push(command.warmCpuMs);
    linkRunsMs.push(byLink.wallMs);
    linkCpuRunsMs.push(byLink.cpuMs);
    commandColdCpuRunsMs.push(command.coldCpuMs);
    log(
      `${trace}, 1 worker: command ${command.coldMs.toFixed(0)} ms cold (CPU ${command.coldCpuMs.toFixed(0)} ms), ${command.warmMs.toFixed(0)} ms warm (CPU ${command.warmCpuMs.toFixed(0)} ms); ` +
        `page ${onPage.wallMs.toFixed(0)} ms (browser CPU ${onPage.cpuMs.toFixed(0)} ms), opened by a link ${byLink.wallMs.toFixed(0)} ms (CPU ${byLink.cpuMs.toFixed(0)} ms); load ${loadavg()[0].toFixed(1)}`,
    );
  }
  const traced = await pageRun(browser, base, trace, timeoutMs, true);
  const commandMs = median(commandRunsMs);
  const commandColdMs = median(commandColdRunsMs);
  const pageMs = median(pageRunsMs);
  return {
    trace,
    cases,
    pageCost,
    commandCost,
    commandColdMs,
    commandMs,
    pageMs,
    commandColdRunsMs,
    commandRunsMs,
    pageRunsMs,
    ratio: commandMs / pageMs,
    ratioCold: commandColdMs / pageMs,
    pageCpuMs: median(pageCpuRunsMs),
    commandCpuMs: median(commandCpuRunsMs),
    ratioCpu: median(commandCpuRunsMs) / median(pageCpuRunsMs),
    linkPageMs: median(linkRunsMs),
    linkPageCpuMs: median(linkCpuRunsMs),
    commandColdCpuMs: median(commandColdCpuRunsMs),
    ratioCpuLink: median(commandColdCpuRunsMs) / median(linkCpuRunsMs),
    mainThreadCpuMsPerCase: traced.tasks.reduce((s, t) => s + t.cpuMs, 0) / cases,
    mainThreadWallMsPerCase: traced.tasks.reduce((s, t) => s + t.wallMs, 0) / cases,
    mainThreadLongestCpuMs: Math.max(0, ...traced.tasks.map((t) => t.cpuMs)),
  };
}

/** The report's line for one trace. */
export function pageVsCommandLine(f: PageVsCommand): string {
  return (
    `${f.trace}, ${f.cases} cases (step cost page ${f.pageCost}, command ${f.commandCost}), 1 worker: page ${f.pageMs.toFixed(0)} ms, command ${f.commandMs.toFixed(0)} ms warm (${f.commandColdMs.toFixed(0)} ms cold); page/command throughput ${f.ratio.toFixed(2)}x (${f.ratioCold.toFixed(2)}x against the cold run; by CPU time ${f.ratioCpu.toFixed(2)}x: page ${f.pageCpuMs.toFixed(0)} ms, command ${f.commandCpuMs.toFixed(0)} ms); ` +
    `a fresh page opened by a link ${f.linkPageMs.toFixed(0)} ms, by CPU ${f.ratioCpuLink.toFixed(2)}x the command's cold run (page ${f.linkPageCpuMs.toFixed(0)} ms, command ${f.commandColdCpuMs.toFixed(0)} ms); ` +
    `main thread per case ${f.mainThreadCpuMsPerCase.toFixed(2)} ms CPU (${f.mainThreadWallMsPerCase.toFixed(2)} ms wall), longest task ${f.mainThreadLongestCpuMs.toFixed(0)} ms CPU`
  );
}
