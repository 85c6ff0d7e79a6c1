/**
 * Where the page's analysis time goes, thread by thread: opens a demo trace in headless Chromium
 * with N workers, records a CDP trace of every thread of every process while it runs, and prints,
 * for the analysis window (status "running" to "done"), each thread's busy time (top-level tasks
 * and microtask checkpoints), when each worker first and last worked, the CPU time per kind of
 * thread and how much of it V8's background compilers took, and the main thread's nested events.
 *
 *   npx tsx bench/browser/trace-threads.ts --dist dist --workers 2 --trace eight-step-agent [--out /tmp/t.json]
 *   npx tsx bench/browser/trace-threads.ts --dist dist --workers 1 --file large.trace.json   # opened with the file picker
 *   npx tsx bench/browser/trace-threads.ts --dist dist --workers 1 --trace stochastic-rag --from-start-page   # the demo chosen on the start page once quiet (as page-vs-command.ts times it)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS as CHROMIUM_ARGS_OF_BENCH } from './chromium-args.ts';
import { openDemoFromStartPage } from './open-from-start-page.ts';
import { assertPortFree } from './port-free.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM_ARGS = [...CHROMIUM_ARGS_OF_BENCH, ...(process.env.EXTRA_CHROMIUM_ARGS ? process.env.EXTRA_CHROMIUM_ARGS.split(' ') : [])];

/** Marks each change of the run's status in the trace (blink.user_timing). */
const INIT_SCRIPT = `
  const seen = new WeakMap();
  new MutationObserver(() => {
    const el = document.querySelector('[data-testid="run-progress"]');
    if (!el) return;
    const s = el.getAttribute('data-status');
    if (seen.get(el) !== s) { seen.set(el, s); performance.mark('bench-status-' + s); }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
`;

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

async function startPreview(dist: string, port: number): Promise<ChildProcess> {
  await assertPortFree(port);
  const child = spawn(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'preview', '--outDir', dist, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: ROOT, stdio: 'ignore' });
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('vite preview did not answer');
}

async function main(): Promise<void> {
  const dist = arg('--dist', 'dist');
  const workers = Number(arg('--workers', '2'));
  const trace = arg('--trace', 'eight-step-agent');
  const port = Number(arg('--port', '5199'));
  const out = arg('--out', '');
  const mode = arg('--mode', 'recorded');
  // A trace file opened with the file picker (as the bench opens the 10 000-case trace), no warm-up visit.
  const file = arg('--file', '');
  const preview = await startPreview(dist, port);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    // A warm-up visit (HTTP cache, code cache), as the bench makes.
    if (!file) await warmUp();
    async function warmUp(): Promise<void> {
    const warm = await browser.newContext();
    const warmPage = await warm.newPage();
    await warmPage.goto(`http://127.0.0.1:${port}/?trace=demos/${trace}.trace.json&workers=${workers}`);
    await warmPage.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: 120_000 });
    await warm.close();
    }

    const cdp = await browser.newBrowserCDPSession();
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
    const complete = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig: { includedCategories: process.argv.includes('--detail')
          ? ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'v8.execute', 'disabled-by-default-v8.compile', '__metadata']
          : ['toplevel', 'blink.user_timing', 'devtools.timeline', 'v8.execute', 'disabled-by-default-v8.compile', '__metadata'] },
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(INIT_SCRIPT);
    if (file) {
      await page.goto(`http://127.0.0.1:${port}/?workers=${workers}`);
      await page.locator('input[type="file"]').first().setInputFiles(file);
    } else if (process.argv.includes('--from-start-page')) await openDemoFromStartPage(page, `http://127.0.0.1:${port}`, trace, `workers=${workers}`);
    else await page.goto(`http://127.0.0.1:${port}/?trace=demos/${trace}.trace.json&workers=${workers}`);
    await page.waitForSelector('[data-testid="run-progress"][data-status="done"]', { timeout: 600_000 });
    if (mode === 'posterior') {
      await page.evaluate(() => performance.clearMarks());
      await page.getByLabel('Mode', { exact: true }).selectOption('posterior');
      await page.waitForFunction(() => performance.getEntriesByName('bench-status-done').length > 0 && performance.getEntriesByName('bench-status-running').length > 0, undefined, { timeout: 120_000 });
    }
    await new Promise((r) => setTimeout(r, 300));
    await cdp.send('Tracing.end');
    await complete;
    await context.close();
    if (out) writeFileSync(out, JSON.stringify({ traceEvents: events }));
    summarize(events);
  } finally {
    await browser.close();
    preview.kill();
  }
}

function summarize(events: TraceEvent[]): void {
  const names = new Map<string, string>();
  const procs = new Map<number, string>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String(e.args?.name));
    if (e.ph === 'M' && e.name === 'process_name') procs.set(e.pid, String(e.args?.name));
  }
  const marks = events.filter((e) => e.cat.includes('blink.user_timing') && e.name.startsWith('bench-status-'));
  const running = marks.filter((e) => e.name === 'bench-status-running').at(-1);
  const done = marks.filter((e) => e.name === 'bench-status-done').at(-1);
  if (!running || !done) throw new Error(`status marks not found: ${marks.map((m) => m.name).join(', ')}`);
  const t0 = running.ts;
  const t1 = done.ts;
  const windowMs = (t1 - t0) / 1000;
  console.log(`analysis window: ${windowMs.toFixed(0)} ms`);
  // Busy time: the union of top-level tasks (they nest) clipped to the window. A worker runs most
  // of its JavaScript in the microtask checkpoint after a task (each case continues after its task
  // hops), outside the task's own trace event: RunMicrotasks (v8.execute) counts as work too.
  // Without it a worker analysing cases looked idle most of the window.
  const isWork = (e: TraceEvent): e is TraceEvent & { dur: number } => e.ph === 'X' && e.dur !== undefined && (e.cat.split(',').includes('toplevel') || e.name === 'RunMicrotasks');
  const spans = new Map<string, [number, number][]>();
  for (const e of events) {
    if (!isWork(e)) continue;
    const s = Math.max(e.ts, t0);
    const f = Math.min(e.ts + e.dur, t1);
    if (f <= s) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!spans.has(key)) spans.set(key, []);
    spans.get(key)!.push([s, f]);
  }
  const byThread = new Map<string, { busy: number; tasks: number; first: number; last: number; longest: number }>();
  for (const [key, list] of spans) {
    list.sort((a, b) => a[0] - b[0]);
    const t = { busy: 0, tasks: 0, first: list[0][0], last: 0, longest: 0 };
    let cur: [number, number] | null = null;
    for (const [s, f] of list) {
      if (cur && s <= cur[1]) cur[1] = Math.max(cur[1], f);
      else {
        if (cur) {
          t.busy += cur[1] - cur[0];
          t.tasks++;
          t.longest = Math.max(t.longest, cur[1] - cur[0]);
        }
        cur = [s, f];
      }
    }
    if (cur) {
      t.busy += cur[1] - cur[0];
      t.tasks++;
      t.longest = Math.max(t.longest, cur[1] - cur[0]);
      t.last = cur[1];
    }
    byThread.set(key, t);
  }
  const rows = [...byThread.entries()].sort((a, b) => b[1].busy - a[1].busy);
  for (const [key, t] of rows) {
    if (t.busy < 2000) continue;
    const pid = Number(key.split(':')[0]);
    console.log(
      `${(procs.get(pid) ?? '?').padEnd(10)} ${(names.get(key) ?? key).padEnd(28)} busy ${(t.busy / 1000).toFixed(0).padStart(5)} ms (${((100 * t.busy) / (t1 - t0)).toFixed(0).padStart(3)} %), ${String(t.tasks).padStart(5)} tasks, longest ${(t.longest / 1000).toFixed(1)} ms, from +${((t.first - t0) / 1000).toFixed(0)} to +${((t.last - t0) / 1000).toFixed(0)} ms`,
    );
  }
  // CPU time (the trace's thread time) of the outermost work events per kind of thread, and the
  // part of it V8's background compilers (Maglev, TurboFan) took: every worker is its own isolate
  // and compiles the same hot code again.
  const cpuByKind = new Map<string, number>();
  const work = new Map<string, (TraceEvent & { dur: number })[]>();
  for (const e of events) {
    if (!isWork(e) || (e as { tdur?: number }).tdur === undefined || e.ts < t0 || e.ts > t1) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!work.has(key)) work.set(key, []);
    work.get(key)!.push(e);
  }
  for (const [key, list] of work) {
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    let end = -Infinity;
    let cpu = 0;
    for (const e of list) {
      if (e.ts < end) continue;
      cpu += (e as { tdur?: number }).tdur ?? 0;
      end = e.ts + e.dur;
    }
    const pid = Number(key.split(':')[0]);
    const kind = `${procs.get(pid) ?? '?'} ${names.get(key) ?? key}`;
    cpuByKind.set(kind, (cpuByKind.get(kind) ?? 0) + cpu);
  }
  let jitCpu = 0;
  for (const e of events) if ((e.name === 'V8.TurbofanTask' || e.name === 'V8.MaglevTask') && e.ts >= t0 && e.ts <= t1) jitCpu += (e as { tdur?: number }).tdur ?? 0;
  console.log('CPU time by kind of thread (all threads of a kind together):');
  for (const [kind, cpu] of [...cpuByKind].sort((a, b) => b[1] - a[1])) if (cpu >= 2000) console.log(`  ${kind.padEnd(50)} ${(cpu / 1000).toFixed(0).padStart(6)} ms`);
  console.log(`  of which V8's background compilers (Maglev, TurboFan)   ${(jitCpu / 1000).toFixed(0).padStart(6)} ms`);
  // The main thread's time by what the task did (the largest nested events).
  const main = rows.find(([key]) => names.get(key) === 'CrRendererMain');
  if (main) {
    const [pid, tid] = main[0].split(':').map(Number);
    const inner = new Map<string, { total: number; count: number }>();
    for (const e of events) {
      if (e.pid !== pid || e.tid !== tid || e.ph !== 'X' || e.dur === undefined || e.ts < t0 || e.ts > t1) continue;
      if (e.cat.split(',').includes('toplevel')) continue;
      const label = e.name === 'FunctionCall' || e.name === 'EventDispatch' || e.name === 'TimerFire' ? `${e.name} ${String((e.args?.data as { type?: string; functionName?: string })?.type ?? (e.args?.data as { functionName?: string })?.functionName ?? '')}` : e.name;
      const t = inner.get(label) ?? { total: 0, count: 0 };
      t.total += e.dur;
      t.count++;
      inner.set(label, t);
    }
    console.log('main thread, nested events (inclusive, overlapping):');
    for (const [label, t] of [...inner.entries()].sort((a, b) => b[1].total - a[1].total).slice(0, 25)) console.log(`  ${label.padEnd(50)} ${(t.total / 1000).toFixed(1).padStart(8)} ms  x${t.count}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
